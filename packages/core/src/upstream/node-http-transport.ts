import type { IncomingMessage, request as HttpRequest } from 'node:http'
import type { TransportAnswer, UpstreamTransport } from './upstream-transport.js'

type Request = typeof HttpRequest
let http: Request | undefined
let https: Request | undefined

/**
 * `node:http`'s or `node:https`'s request function, loaded on the first call to such an address:
 * a cold start answering discovery, a cached answer or a dataset loads neither (TLS is the
 * heavier of the two), and the built-ins load from Node's own snapshot in a few milliseconds.
 */
async function requestFor(protocol: string): Promise<Request> {
  if (protocol === 'https:') return (https ??= (await import('node:https')).request)
  if (protocol === 'http:') return (http ??= (await import('node:http')).request)
  throw new Error(`unsupported protocol ${protocol}`)
}

/**
 * The default {@link UpstreamTransport}: Node's own HTTP client, through its global agents
 * (connections kept alive, as Node does since version 19; an agent a deployment sets as
 * `http.globalAgent` or `https.globalAgent` applies). Chosen over undici for what a cold start
 * costs: undici is some 530 KB of code that takes a fresh serverless process about 50 ms to
 * evaluate before its first upstream call, where Node's client is part of the runtime.
 * Redirects are not followed, as with undici's `request`: an upstream that moves answers with
 * its 3xx, which the client reports. `signal` ends the exchange at any point: while connecting
 * or waiting for the head (the call fails with an `AbortError`) or while the body is read (the
 * body fails, and its socket is closed rather than reused).
 *
 * @example
 * const answer = await nodeHttpTransport('https://driftsdata.statnett.no/restapi/PhysicalFlowMap/GetFlow', { method: 'GET', headers: {}, signal: AbortSignal.timeout(2000) })
 * let size = 0
 * for await (const chunk of answer.body) size += chunk.length
 */
export const nodeHttpTransport: UpstreamTransport = async (url, request) => {
  const target = new URL(url)
  const send = await requestFor(target.protocol)
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(target, { method: request.method, headers: request.headers, signal: request.signal }, resolve)
    // Stays for the request's life: an abort or a reset after the head is an 'error' of the
    // request too, which must not go unhandled. (The response itself emits 'error' only to a
    // listener: a body nobody reads fails quietly.)
    outgoing.on('error', reject)
    // A body given whole: Node sends it with its Content-Length, not chunked.
    outgoing.end(request.body)
  })
  return answerOf(response)
}

function answerOf(response: IncomingMessage): TransportAnswer {
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    body: response,
    discard: async () => {
      if (response.destroyed) return
      // A body already received whole (the usual short error page) is drained, which gives the
      // kept-alive connection back to the agent. Any other is cut off with its socket: the rest
      // of a body of unknown length is not worth waiting for, and a socket with unread bytes
      // on it can never serve another request.
      if (response.complete) response.resume()
      else response.destroy()
    },
  }
}
