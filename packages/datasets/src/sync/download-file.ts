import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { DownloadError, failureReason, httpGet, statusError } from './http-get.js'

export { DownloadError }

/** What a conditional download found. */
export interface DownloadResult {
  url: string
  /** `unchanged`: the publisher answered 304 to the validators given, and nothing was written. */
  status: 'downloaded' | 'unchanged'
  etag: string | null
  lastModified: string | null
  bytes: number
}

/** Options of {@link downloadFile}. */
export interface DownloadOptions {
  /** Validators from the last download; sent as If-None-Match and If-Modified-Since. */
  etag?: string | null
  lastModified?: string | null
  headers?: Record<string, string>
  userAgent: string
  /** Time allowed without a byte arriving before the download is given up. */
  idleTimeoutMs?: number
  onBytes?: (received: number, total: number | null) => void
  signal?: AbortSignal
}

/**
 * Downloads `url` to `path` when it changed since the validators given (a 304 writes nothing).
 * The body streams to `path.part` and is renamed into place only once it is complete, so an
 * interrupted download never leaves a truncated file where a whole one is expected.
 *
 * Asked with {@link httpGet} (Node's own HTTP client; see there why not undici).
 *
 * @example
 * const result = await downloadFile('https://indatapublic.blob.core.windows.net/tildelingsrapport/Tildelinger.csv', 'data/downloads/t.csv',
 *   { etag: previous.etag, userAgent: 'allmenning/0.1.0' })
 * if (result.status === 'unchanged') console.log('no new version')
 */
export async function downloadFile(url: string, path: string, options: DownloadOptions): Promise<DownloadResult> {
  const headers: Record<string, string> = { 'user-agent': options.userAgent, accept: '*/*', ...options.headers }
  if (options.etag) headers['if-none-match'] = options.etag
  if (options.lastModified) headers['if-modified-since'] = options.lastModified
  const idle = options.idleTimeoutMs ?? 60_000
  const silence = new AbortController()
  const signal = options.signal ? AbortSignal.any([options.signal, silence.signal]) : silence.signal
  const watch = () =>
    setTimeout(() => silence.abort(new DownloadError(`${url} sent nothing for ${idle / 1000} s`)), idle)
  let timer = watch()
  const alive = () => {
    clearTimeout(timer)
    timer = watch()
  }
  const part = `${path}.part`
  let received = 0
  try {
    const { response } = await httpGet(url, headers, signal)
    const etag = response.headers.etag ?? null
    const lastModified = response.headers['last-modified'] ?? null
    if (response.statusCode === 304) {
      response.resume()
      return {
        url,
        status: 'unchanged',
        etag: etag ?? options.etag ?? null,
        lastModified: lastModified ?? options.lastModified ?? null,
        bytes: 0,
      }
    }
    if (response.statusCode !== 200) throw statusError(url, response)
    const length = response.headers['content-length']
    const total = length !== undefined && /^\d+$/.test(length) ? Number(length) : null
    await mkdir(dirname(path), { recursive: true })
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length
        alive()
        options.onBytes?.(received, total)
        done(null, chunk)
      },
    })
    try {
      await pipeline(response, count, createWriteStream(part))
    } catch (error) {
      throw new DownloadError(
        `The download of ${url} broke off after ${received} bytes${total !== null ? ` of ${total}` : ''}: ${failureReason(error, signal)}`,
      )
    }
    if (total !== null && received !== total) {
      throw new DownloadError(`The download of ${url} ended after ${received} of ${total} bytes`)
    }
    await rename(part, path)
    return { url, status: 'downloaded', etag, lastModified, bytes: received }
  } catch (error) {
    await rm(part, { force: true })
    throw error
  } finally {
    clearTimeout(timer)
  }
}
