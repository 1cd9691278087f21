import { createRequire } from 'node:module'

/** Why a PDF's text could not be read. */
export class PdfTextError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PdfTextError'
  }
}

/** What this module reads of PDF.js's text items. */
interface TextItem {
  str: string
  hasEOL: boolean
  transform: number[]
  height: number
}

/** One line of a page: its text and where it stands (PDF space: y grows upwards). */
interface Line {
  text: string
  y: number
  height: number
}

function linesOf(items: TextItem[]): Line[] {
  const lines: Line[] = []
  let text = ''
  let y: number | undefined
  let height = 0
  const end = () => {
    if (y !== undefined && text.trim() !== '') lines.push({ text: text.replace(/\s+/g, ' ').trim(), y, height })
    text = ''
    y = undefined
    height = 0
  }
  for (const item of items) {
    const itemY = item.transform[5] ?? 0
    // A run on another baseline starts a new line even without an end-of-line mark.
    if (y !== undefined && Math.abs(itemY - y) > Math.max(1, (item.height || height) / 2)) end()
    if (y === undefined) y = itemY
    text += item.str
    height = Math.max(height, item.height || 0)
    if (item.hasEOL) end()
  }
  end()
  return lines
}

/**
 * Lines of a page joined into paragraphs: a gap between two lines clearly wider than the
 * text's height (1.8 times; single and one-and-a-half spacing stay below) ends one.
 */
function paragraphsOf(lines: Line[]): string[] {
  const gaps = lines
    .slice(1)
    .map((line, i) => (lines[i] as Line).y - line.y)
    .filter((gap) => gap > 0)
  const narrowest = gaps.length > 0 ? Math.min(...gaps) : 0
  const height =
    lines
      .map((line) => line.height)
      .filter((h) => h > 0)
      .sort((a, b) => a - b)[0] ?? 0
  const threshold = height > 0 ? height * 1.8 : narrowest * 1.4
  const paragraphs: string[] = []
  let current: string[] = []
  lines.forEach((line, i) => {
    const gap = i === 0 ? 0 : (lines[i - 1] as Line).y - line.y
    if (current.length > 0 && (gap > threshold || gap < 0)) {
      paragraphs.push(current.join(' '))
      current = []
    }
    current.push(line.text)
  })
  if (current.length > 0) paragraphs.push(current.join(' '))
  return paragraphs
}

let loading: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | undefined

/**
 * PDF.js, loaded once, so that it also runs from a bundle with no node_modules (the Lambda
 * example). In Node it runs its worker on this thread, importing `pdf.worker.mjs` from beside
 * `pdf.mjs` unless `globalThis.pdfjsWorker` holds it already; a bundle's chunk has no such file
 * beside it, so the worker is imported here first (the bundler then carries it). And pdf.mjs
 * builds a DOMMatrix at import, taking the class from `@napi-rs/canvas` when that is installed;
 * without it, a class with nothing in it stands in: reading text never draws.
 */
function loadPdfJs(): Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> {
  return (loading ??= (async () => {
    await import('pdfjs-dist/legacy/build/pdf.worker.mjs')
    if (!('DOMMatrix' in globalThis) && !canvasInstalled()) Object.assign(globalThis, { DOMMatrix: class DOMMatrix {} })
    return import('pdfjs-dist/legacy/build/pdf.mjs')
  })())
}

function canvasInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@napi-rs/canvas')
    return true
  } catch {
    return false
  }
}

/**
 * The text of a PDF as plain text, paragraphs separated by a blank line, read with Mozilla's
 * PDF.js (`pdfjs-dist`, loaded only when a text is asked for). A file that is not a PDF, is
 * encrypted, or holds no text (a scan) is a {@link PdfTextError}: the caller says the text is
 * not available rather than answer an empty or garbled one.
 *
 * @example
 * const text = await pdfText(bytes) // 'HØYESTERETTS DOM\n\navsagt 9. mai 2025 …'
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  if (bytes.length < 5 || Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
    throw new PdfTextError('is not a PDF file')
  }
  let pdfjs: Awaited<ReturnType<typeof loadPdfJs>>
  try {
    pdfjs = await loadPdfJs()
  } catch (error) {
    loading = undefined
    throw new PdfTextError(
      `could not be read: PDF.js could not be loaded (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  // A copy: PDF.js takes over the buffer it is given.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  })
  let doc: Awaited<typeof task.promise>
  try {
    doc = await task.promise
  } catch (error) {
    throw new PdfTextError(`could not be read as a PDF (${error instanceof Error ? error.message : String(error)})`)
  }
  try {
    const pages: string[] = []
    for (let number = 1; number <= doc.numPages; number++) {
      // PDF.js in Node parses on this thread and never waits for I/O: without a turn of the
      // event loop between pages, a 100-page decision held every other request for ~300 ms.
      // A page takes a few milliseconds.
      await new Promise((resolve) => setImmediate(resolve))
      const page = await doc.getPage(number)
      const content = await page.getTextContent()
      const items = content.items.filter((item) => 'str' in item) as TextItem[]
      pages.push(paragraphsOf(linesOf(items)).join('\n\n'))
      page.cleanup()
    }
    const text = pages.filter((page) => page !== '').join('\n\n')
    if (text.trim() === '') throw new PdfTextError('holds no text (a scanned document?)')
    return text
  } finally {
    await doc.destroy()
  }
}
