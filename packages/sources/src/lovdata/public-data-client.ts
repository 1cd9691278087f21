import type { Readable } from 'node:stream'
import type { Dispatcher } from 'undici'
import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError } from '@allmenning/core/source'
import { LOVDATA_API_BASE_URL, lovdataApi } from './lovdata-upstream.js'

/** How errors name this upstream. */
const LOVDATA_UPSTREAM = { id: lovdataApi.id, name: lovdataApi.name }

/** One file `/v1/publicData/list` offers. */
export interface PublicDataFile {
  filename: string
  description: string | null
  sizeBytes: number | null
  /** When Lovdata last rebuilt it (ISO 8601); the archives carry no Last-Modified or ETag. */
  lastModified: string | null
}

/** An archive being downloaded: its bytes arrive through `body`. */
export interface PublicDataDownload {
  /** The URL called, for provenance. */
  url: string
  /** The archive's bytes, streamed; read it to the end or destroy it. */
  body: Readable
  /** From Content-Length, when sent. */
  sizeBytes: number | null
}

/** Settings of {@link createLovdataPublicData}. */
export interface LovdataPublicDataOptions {
  /** `https://api.lovdata.no` by default. */
  baseUrl?: string
  /** Longest wait for the answer to start, and between two chunks of a download, in ms. Default 30 000. */
  timeoutMs?: number
  /** Identifies the caller to Lovdata. */
  userAgent?: string
  /** undici dispatcher (a proxy, a pool). */
  dispatcher?: Dispatcher
}

/** The client of Lovdata's public data. See {@link createLovdataPublicData}. */
export interface LovdataPublicData {
  /** Every file offered, with its rebuild time. */
  list(): Promise<PublicDataFile[]>
  /** Starts the download of one file; the body streams. */
  download(filename: string): Promise<PublicDataDownload>
}

const listShape = v.array(
  v.object({
    filename: v.pipe(v.string(), v.minLength(1)),
    description: v.optional(v.nullable(v.string()), null),
    sizeBytes: v.optional(v.nullable(v.number()), null),
    lastModified: v.optional(v.nullable(v.string()), null),
  }),
)

/** The files offered are plain names (`gjeldende-lover.tar.bz2`); anything else is refused before a call. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string; name?: string } | null)?.code
  return (
    (error as { name?: string } | null)?.name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
}

/**
 * Creates the client of Lovdata's public data: `GET /v1/publicData/list` for the files and
 * their rebuild times, and `GET /v1/publicData/get/{file}` streamed, so an archive of tens
 * of megabytes never sits in memory whole. Every failure is an `UpstreamError` naming
 * Lovdata: unreachable, too slow, an error status (429 over the 200 calls a minute), or a
 * list in an unexpected shape.
 *
 * @example
 * const lovdata = createLovdataPublicData()
 * const files = await lovdata.list()
 * const { body } = await lovdata.download('gjeldende-lover.tar.bz2')
 * for await (const doc of readLovdataArchive(body)) console.log(doc.documentId)
 */
export function createLovdataPublicData(options: LovdataPublicDataOptions = {}): LovdataPublicData {
  const baseUrl = (options.baseUrl ?? LOVDATA_API_BASE_URL).replace(/\/+$/, '')
  const timeoutMs = options.timeoutMs ?? 30_000
  const headers = { 'user-agent': options.userAgent ?? 'allmenning' }

  async function call(path: string, accept: string): Promise<{ url: string; response: Dispatcher.ResponseData }> {
    const url = `${baseUrl}${path}`
    let response: Dispatcher.ResponseData
    // undici's own timers are coarse; this bounds the wait for the answer to start, and is
    // cleared once it has, so a long download is not cut off.
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(), timeoutMs)
    try {
      // Loaded here, not with the source: only an import of the rules calls Lovdata's public
      // data, and a serving process should not evaluate undici for it (see the core's upstream client).
      // undici is CommonJS: `default` is its exports, in Node and in a bundler's chunk alike.
      const { request } = (await import('undici')).default
      response = await request(url, {
        method: 'GET',
        headers: { ...headers, accept },
        signal: abort.signal,
        headersTimeout: timeoutMs,
        // Between two chunks, not for the whole download: a large archive takes longer.
        bodyTimeout: timeoutMs,
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      })
    } catch (error) {
      if (isTimeout(error) || abort.signal.aborted)
        throw new UpstreamError(LOVDATA_UPSTREAM, 'timeout', `did not answer within ${timeoutMs} ms`)
      throw new UpstreamError(LOVDATA_UPSTREAM, 'unavailable', 'could not be reached')
    } finally {
      clearTimeout(timer)
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      await response.body.dump().catch(() => undefined)
      const kind =
        response.statusCode === 429 ? 'rate limited the gateway (HTTP 429)' : `answered HTTP ${response.statusCode}`
      throw new UpstreamError(LOVDATA_UPSTREAM, 'status', `${kind} for ${path}`, response.statusCode)
    }
    return { url, response }
  }

  return {
    async list() {
      const { response } = await call('/v1/publicData/list', 'application/json')
      let body: unknown
      try {
        body = JSON.parse(await response.body.text())
      } catch (error) {
        if (isTimeout(error))
          throw new UpstreamError(LOVDATA_UPSTREAM, 'timeout', 'did not finish the file list in time')
        throw new UpstreamError(LOVDATA_UPSTREAM, 'invalid_response', 'answered a file list that is not JSON')
      }
      return checkUpstreamShape(LOVDATA_UPSTREAM, listShape, body, 'the public data file list')
    },

    async download(filename) {
      if (!FILE_NAME.test(filename)) throw new TypeError(`Not a public data file name: ${JSON.stringify(filename)}`)
      const { url, response } = await call(
        `/v1/publicData/get/${filename}`,
        'application/x-bzip2, application/octet-stream, */*',
      )
      const length = Number(response.headers['content-length'])
      const body = response.body as unknown as Readable
      // Without a listener, a download breaking off before anyone reads would crash the
      // process; the archive reader attaches its own and reports it.
      body.on('error', () => undefined)
      return { url, body, sizeBytes: Number.isFinite(length) && length >= 0 ? length : null }
    },
  }
}
