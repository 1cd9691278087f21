import type { Gateway, GatewayRequest, GatewayResponse } from './gateway-request.js'

/**
 * The gateway's answer to a request: the answer itself when the gateway has it without waiting
 * (`Gateway.answer`, a cache hit), else a native promise of it (`handle`'s, for a gateway
 * without `answer`). An adapter writes the first at once and the second when it settles.
 * Neither throws nor rejects.
 *
 * @example
 * import type { ServerResponse } from 'node:http'
 * declare const out: ServerResponse
 * const send = (response: GatewayResponse) =>
 *   void out.writeHead(response.status, response.headers).end(bodyBytes(response) ?? response.body ?? undefined)
 * const answer = answerOf(gateway, request)
 * if (answer instanceof Promise) void answer.then(send)
 * else send(answer)
 */
export function answerOf(gateway: Gateway, request: GatewayRequest): GatewayResponse | Promise<GatewayResponse> {
  return gateway.answer ? gateway.answer(request) : Promise.resolve(gateway.handle(request))
}
