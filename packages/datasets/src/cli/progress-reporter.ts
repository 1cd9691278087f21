import type { Writable } from 'node:stream'
import type { ImportProgress } from '../import/import-types.js'

/** Reports progress: a redrawn bar on a terminal, plain lines every few seconds otherwise. */
export interface ProgressReporter {
  download(label: string, received: number, total: number | null): void
  import(label: string, progress: ImportProgress): void
  /** An upload of a file compressed as it is read: `sent` bytes sent, `read` of `total` read. */
  upload(label: string, sent: number, read: number, total: number): void
  /** A line of its own (clears the bar first). */
  line(text: string): void
  done(): void
}

/** A size for people: `812.4 kB`, `48.1 MB`. */
export const megabytes = (bytes: number) => (bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`)
const count = (n: number) => n.toLocaleString('en-US')
const phases: Record<ImportProgress['phase'], string> = { reading: 'reading', indexing: 'indexing', switching: 'switching to the new version' }

function bar(share: number, width = 24): string {
  const filled = Math.max(0, Math.min(width, Math.round(share * width)))
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`
}

/**
 * A progress reporter for `out`: on a terminal one line redrawn at most ten times a second
 * with a bar, bytes, rows and rate; elsewhere (CI logs, pipes) a plain line every `everyMs`.
 *
 * @example
 * const progress = createProgressReporter(process.stderr, process.stderr.isTTY === true)
 * progress.import('aksjonaerregisteret', p)
 */
export function createProgressReporter(out: Writable, tty: boolean, everyMs = 5000): ProgressReporter {
  let last = 0
  let drawn = false
  const throttled = (force: boolean) => {
    const now = Date.now()
    if (!force && now - last < (tty ? 100 : everyMs)) return false
    last = now
    return true
  }
  const show = (text: string) => {
    if (tty) {
      out.write(`\r\x1b[K${text}`)
      drawn = true
    } else {
      out.write(`${text}\n`)
    }
  }
  return {
    download(label, received, total) {
      if (!throttled(total !== null && received === total)) return
      const share = total ? received / total : 0
      show(`${label}: downloading ${tty && total ? `${bar(share)} ` : ''}${megabytes(received)}${total ? ` of ${megabytes(total)} (${Math.round(share * 100)}%)` : ''}`)
    },
    upload(label, sent, read, total) {
      if (!throttled(read === total)) return
      const share = total > 0 ? read / total : 1
      show(`${label}: uploading ${tty ? `${bar(share)} ` : ''}${megabytes(read)} of ${megabytes(total)} compressed (${Math.round(share * 100)}%), ${megabytes(sent)} sent`)
    },
    import(label, p) {
      if (!throttled(p.phase !== 'reading')) return
      const share = p.totalBytes > 0 ? p.bytes / p.totalBytes : 0
      // Rows, as the line says: a record (a Lovdata document) may give many rows (its sections).
      const rate = p.elapsedMs > 0 ? Math.round((p.rows / p.elapsedMs) * 1000) : 0
      const bytes = `${megabytes(p.bytes)} of ${megabytes(p.totalBytes)} (${Math.round(share * 100)}%)`
      const malformed = p.malformed > 0 ? `, ${count(p.malformed)} malformed` : ''
      show(
        p.phase === 'reading'
          ? `${label}: ${tty ? `${bar(share)} ` : ''}${bytes}, ${count(p.rows)} rows, ${count(rate)} rows/s${malformed}`
          : `${label}: ${phases[p.phase]} (${count(p.rows)} rows read${malformed})`,
      )
    },
    line(text) {
      if (drawn) out.write('\r\x1b[K')
      drawn = false
      out.write(`${text}\n`)
    },
    done() {
      if (drawn) out.write('\n')
      drawn = false
    },
  }
}
