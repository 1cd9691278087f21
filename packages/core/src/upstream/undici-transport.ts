import type { Dispatcher, request as UndiciRequest } from 'undici'
import type { UpstreamTransport } from './upstream-transport.js'

let loaded: typeof UndiciRequest | undefined

/**
 * undici's `request`, loaded on the first call that needs it instead of with the gateway:
 * undici is about half a megabyte bundled, and only deployments that give a dispatcher use it.
 */
async function undiciRequest(): Promise<typeof UndiciRequest> {
  // undici is CommonJS: `default` is its exports however it is loaded (Node, or a bundler's
  // chunk, which has no named exports for it).
  return (loaded ??= (await import('undici')).default.request)
}

/**
 * The {@link UpstreamTransport} for a deployment that gives its own undici `dispatcher` (an
 * Agent with its own pool, a ProxyAgent, a MockAgent in its tests): every call goes through it.
 *
 * @example
 * import { ProxyAgent } from 'undici'
 * const send = undiciTransport(new ProxyAgent('http://proxy.internal:3128'))
 * const answer = await send('https://driftsdata.statnett.no/restapi/PhysicalFlowMap/GetFlow', { method: 'GET', headers: {}, signal: AbortSignal.timeout(2000) })
 */
export function undiciTransport(dispatcher: Dispatcher): UpstreamTransport {
  return async (url, request) => {
    const send = await undiciRequest()
    const response = await send(url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: request.signal,
      dispatcher,
    })
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      // Reads none of the rest: a connection with a body still owed on it is closed, not drained.
      discard: () => response.body.dump({ limit: 0 }).catch(() => undefined),
    }
  }
}
