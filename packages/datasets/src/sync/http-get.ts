import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'

/** Redirects followed before a request is given up. */
const maxRedirects = 5

/**
 * A download that failed: an address that cannot be reached or redirects in circles, an error
 * status, a connection that broke off, a body shorter than its Content-Length, or silence.
 *
 * @example
 * try { await httpGet(url, {}, signal) } catch (error) { if (error instanceof DownloadError) console.error(error.message) }
 */
export class DownloadError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DownloadError'
  }
}

/** A response whose body is still to be read, and the address that answered it. */
export interface HttpAnswer {
  response: IncomingMessage
  /** The last address asked: where relative links in the body are resolved. */
  url: string
}

/** Why a request failed, in a word where the socket gives one (`ECONNREFUSED`), or why `signal` stopped it. */
export function failureReason(error: unknown, signal: AbortSignal): string {
  if (signal.aborted && signal.reason instanceof Error) return signal.reason.message
  const { code, message } = error as { code?: string; message?: string }
  return code && code !== 'ABORT_ERR' ? code : (message ?? String(error))
}

function send(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { headers, signal }, resolve)
    request.on('error', reject)
    request.end()
  })
}

/**
 * GETs `url` with Node's own HTTP client, following redirects (relative ones too, at most five,
 * as a browser would), and resolves once the final answer's head is in; the body is the
 * caller's to read, or to drain with {@link statusError}. An address that is not http(s),
 * cannot be reached or redirects in circles is a {@link DownloadError}, whose message says
 * why `signal` stopped the request when it did.
 *
 * Not undici: undici 7, the last line for Node 20, throws an uncatchable assertion, ending the
 * process, when a server closes the connection after a body (`Connection: close`, any HTTP/1.0
 * server) that arrived faster than it was read (nodejs/undici#5360, fixed in undici 8 only).
 * Dataset files are large and written to disk as they arrive, so that happens.
 *
 * @example
 * const { response } = await httpGet('https://data.brreg.no/enhetsregisteret/api/roller/totalbestand', { 'user-agent': 'allmenning/0.1.0' }, signal)
 * response.statusCode // 200
 */
export async function httpGet(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<HttpAnswer> {
  let current: URL
  try {
    current = new URL(url)
  } catch {
    throw new DownloadError(`${url} is not a URL`)
  }
  for (let redirects = 0; ; redirects++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:')
      throw new DownloadError(`${current.href} is not an http or https URL`)
    let response: IncomingMessage
    try {
      response = await send(current, headers, signal)
    } catch (error) {
      throw new DownloadError(`${url} could not be reached: ${failureReason(error, signal)}`)
    }
    const location = response.headers.location
    if (![301, 302, 303, 307, 308].includes(response.statusCode ?? 0) || !location)
      return { response, url: current.href }
    response.resume()
    if (redirects === maxRedirects) throw new DownloadError(`${url} redirected more than ${maxRedirects} times`)
    current = new URL(location, current)
  }
}

/** The error for an answer whose status is not the one asked for; its body is drained. */
export function statusError(url: string, response: IncomingMessage): DownloadError {
  response.resume()
  return new DownloadError(`${url} answered ${response.statusCode} ${response.statusMessage ?? ''}`.trimEnd())
}

/**
 * Reads a body whole as text (UTF-8), up to `limit` bytes. A longer one, or one that breaks off
 * (or that `signal` stops), is a {@link DownloadError}.
 */
export async function readText(answer: HttpAnswer, limit: number, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of answer.response) {
      size += (chunk as Buffer).length
      if (size > limit) break
      chunks.push(chunk as Buffer)
    }
  } catch (error) {
    throw new DownloadError(`${answer.url} broke off its answer after ${size} bytes: ${failureReason(error, signal)}`)
  }
  if (size > limit) throw new DownloadError(`${answer.url} sent more than the ${limit} bytes accepted`)
  return Buffer.concat(chunks).toString('utf8')
}
