// pdfjs-dist ships no declarations for its worker; pdf-text.ts imports it only for what it
// does on import (it sets globalThis.pdfjsWorker).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown
}
