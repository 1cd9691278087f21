import type { Writable } from 'node:stream'
import type { DatasetDeriveProgress } from '@allmenning/core/source'
import type { ImportProgress } from '../import/import-types.js'

/** Reports progress: a redrawn bar on a terminal, plain lines every few seconds otherwise. */
export interface ProgressReporter {
  download(label: string, received: number, total: number | null): void
  import(label: string, progress: ImportProgress): void
  /** An upload of a file compressed as it is read: `sent` bytes sent, `read` of `total` read. */
  upload(label: string, sent: number, read: number, total: number): void
  /** A derived dataset's run (`action`: `placing addresses`), `elapsedMs` since it started. */
  derive(label: string, action: string, progress: DatasetDeriveProgress, elapsedMs: number): void
  /** A line of its own (clears the bar first). */
  line(text: string): void
  done(): void
}

/** A size for people: `812.4 kB`, `48.1 MB`. */
export const megabytes = (bytes: number) =>
  bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`
const count = (n: number) => n.toLocaleString('en-US')
const phases: Record<ImportProgress['phase'], string> = {
  reading: 'reading',
  indexing: 'indexing',
  switching: 'switching to the new version',
}

/**
 * A duration for people: `42 s`, `8 min 20 s`, `1 h 20 min`; at least `1 s`.
 *
 * @example
 * duration(500) // '8 min 20 s'
 */
export function duration(seconds: number): string {
  // A run of a few requests still takes a moment: never `0 s`.
  const s = Math.max(1, Math.round(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`
  const minutes = Math.round((s % 3600) / 60)
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ''}`
}

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
      show(
        `${label}: downloading ${tty && total ? `${bar(share)} ` : ''}${megabytes(received)}${total ? ` of ${megabytes(total)} (${Math.round(share * 100)}%)` : ''}`,
      )
    },
    upload(label, sent, read, total) {
      if (!throttled(read === total)) return
      const share = total > 0 ? read / total : 1
      show(
        `${label}: uploading ${tty ? `${bar(share)} ` : ''}${megabytes(read)} of ${megabytes(total)} compressed (${Math.round(share * 100)}%), ${megabytes(sent)} sent`,
      )
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
    derive(label, action, p, elapsedMs) {
      if (!throttled(p.done === p.total)) return
      const share = p.total > 0 ? p.done / p.total : 1
      const rate = elapsedMs > 0 ? (p.done / elapsedMs) * 1000 : 0
      const left = rate > 0 && p.done < p.total ? `, about ${duration((p.total - p.done) / rate)} left` : ''
      const counts = Object.entries(p.counts ?? {})
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `${count(n)} ${name}`)
      show(
        `${label}: ${action} ${tty ? `${bar(share)} ` : ''}${count(p.done)} of ${count(p.total)} (${Math.round(share * 100)}%), ` +
          `${rate.toFixed(1)}/s${left}${counts.length > 0 ? `; ${counts.join(', ')}` : ''}`,
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
