import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'

/** Redirects followed before a request is given up. */
const maxRedirects = 5

/** A response whose body is still to be read, and the address that answered it. */
export interface HttpAnswer {
  response: IncomingMessage
  /** The last address asked: where relative links in the body are resolved. */
  url: string
}

/** An address that cannot be asked, or one that redirects too often. */
export class HttpGetError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HttpGetError'
  }
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
 * caller's to read or drain. Rejects with {@link HttpGetError} for an address that is not
 * http(s) or a redirect loop, and with the socket's error (`ECONNREFUSED`, an abort) otherwise.
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
  let current = new URL(url)
  for (let redirects = 0; ; redirects++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new HttpGetError(`${current.href} is not an http or https URL`)
    const response = await send(current, headers, signal)
    const location = response.headers.location
    if (![301, 302, 303, 307, 308].includes(response.statusCode ?? 0) || !location) return { response, url: current.href }
    response.resume()
    if (redirects === maxRedirects) throw new HttpGetError(`${url} redirected more than ${maxRedirects} times`)
    current = new URL(location, current)
  }
}

/** Reads a body whole as text (UTF-8), up to `limit` bytes; a longer one is an {@link HttpGetError}. */
export async function readText(answer: HttpAnswer, limit: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of answer.response) {
    size += (chunk as Buffer).length
    if (size > limit) {
      answer.response.destroy()
      throw new HttpGetError(`${answer.url} sent more than the ${limit} bytes accepted`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}
