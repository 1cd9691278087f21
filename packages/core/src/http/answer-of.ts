import type { Gateway, GatewayRequest, GatewayResponse } from './gateway-request.js'

/**
 * The gateway's answer to a request: the answer itself when the gateway has it without waiting
 * (`Gateway.answer`, a cache hit), else a native promise of it (`handle`'s, for a gateway
 * without `answer`). Neither throws nor rejects. An adapter that writes to Node's response
 * itself writes the first in a microtask, as it would after a promise: Node's parser has then
 * read the rest of what arrived with the request, and refuses a broken remainder before the
 * answer is out rather than after an answer that closed the connection.
 *
 * @example
 * import type { ServerResponse } from 'node:http'
 * declare const out: ServerResponse
 * const send = (response: GatewayResponse) =>
 *   void out.writeHead(response.status, response.headers).end(bodyBytes(response) ?? response.body ?? undefined)
 * const answer = answerOf(gateway, request)
 * if (answer instanceof Promise) void answer.then(send)
 * else queueMicrotask(() => send(answer))
 */
export function answerOf(gateway: Gateway, request: GatewayRequest): GatewayResponse | Promise<GatewayResponse> {
  return gateway.answer ? gateway.answer(request) : Promise.resolve(gateway.handle(request))
}
