import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One file the fake publisher serves. */
export interface PublishedFile {
  body: Buffer | string
  contentType?: string
  /** Sent as Last-Modified; the default is a fixed date, so tests are repeatable. */
  lastModified?: Date
  /** Leave out the ETag, as some publishers do (then Last-Modified alone makes requests conditional). */
  noEtag?: boolean
  /** Send the headers and this many body bytes, then drop the connection: an interrupted download. */
  breakAfter?: number
  /** Answer this status instead of the file. */
  status?: number
}

/** A request the fake publisher received, with the validators it carried. */
export interface PublisherRequest {
  path: string
  ifNoneMatch: string | undefined
  ifModifiedSince: string | undefined
  userAgent: string | undefined
  accept: string | undefined
  status: number
}

/** A local HTTP server playing a publisher of bulk files. */
export interface FakePublisher {
  /** `http://127.0.0.1:<port>` */
  url: string
  requests: PublisherRequest[]
  /** Serves `file` at `path` (replacing what was there: a new version). */
  publish(path: string, file: PublishedFile): void
  close(): Promise<void>
}

const defaultDate = new Date('2026-11-22T02:00:00Z')

function etagOf(body: Buffer): string {
  return `"0x${createHash('sha256').update(body).digest('hex').slice(0, 16).toUpperCase()}"`
}

/**
 * Starts a publisher of bulk files on 127.0.0.1, as blob stores and web servers answer them:
 * ETag and Last-Modified on every file, 304 to a matching If-None-Match (or, without one, to an
 * If-Modified-Since not older than the file), Content-Length, and optionally a connection that
 * breaks off mid-body.
 *
 * @example
 * const publisher = await startFakePublisher()
 * publisher.publish('/tildelingsrapport/Tildelinger.csv', { body: csv, contentType: 'text/csv' })
 */
export async function startFakePublisher(): Promise<FakePublisher> {
  const files = new Map<string, PublishedFile & { bytes: Buffer; etag: string }>()
  const requests: PublisherRequest[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    const file = files.get(path)
    const record = (status: number) =>
      requests.push({
        path,
        ifNoneMatch: req.headers['if-none-match'],
        ifModifiedSince: req.headers['if-modified-since'],
        userAgent: req.headers['user-agent'],
        accept: req.headers.accept,
        status,
      })
    if (!file) {
      record(404)
      res.writeHead(404, { 'content-type': 'application/xml' })
      res.end('<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code></Error>')
      return
    }
    if (file.status) {
      record(file.status)
      res.writeHead(file.status, { 'content-type': 'text/plain' })
      res.end('Server error')
      return
    }
    const modified = file.lastModified ?? defaultDate
    const headers: Record<string, string> = { 'last-modified': modified.toUTCString() }
    if (!file.noEtag) headers.etag = file.etag
    const since = req.headers['if-modified-since']
    const match = req.headers['if-none-match']
    const unchanged =
      match !== undefined
        ? !file.noEtag && match === file.etag
        : since !== undefined && Date.parse(since) >= Math.floor(modified.getTime() / 1000) * 1000
    if (unchanged) {
      record(304)
      res.writeHead(304, headers)
      res.end()
      return
    }
    record(200)
    res.writeHead(200, {
      ...headers,
      'content-type': file.contentType ?? 'application/octet-stream',
      'content-length': String(file.bytes.length),
    })
    if (file.breakAfter !== undefined) {
      // A pause before the connection ends lets the client take in the bytes sent: a stream that
      // fails drops what it had queued but not yet handed on.
      res.write(file.bytes.subarray(0, file.breakAfter), () => setTimeout(() => req.socket.end(), 150))
      return
    }
    res.end(file.bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    publish(path, file) {
      const bytes = Buffer.isBuffer(file.body) ? file.body : Buffer.from(file.body, 'utf8')
      files.set(path, { ...file, bytes, etag: etagOf(bytes) })
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
