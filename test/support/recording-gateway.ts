import type { Gateway, GatewayRequest, GatewayResponse } from '@allmenning/core'

export const JSON_BODY = '{"data":[],"note":"æøå"}'
export const JSON_LENGTH = String(Buffer.byteLength(JSON_BODY))

export interface Recorded {
  request: GatewayRequest
  body: unknown
}

/**
 * A stand-in for the core: records every GatewayRequest (and its body, read eagerly) and
 * answers like the engine does, with 304 for a matching If-None-Match and no body for HEAD.
 */
export function recordingGateway(answer?: (request: GatewayRequest) => GatewayResponse) {
  const seen: Recorded[] = []
  const gateway: Gateway = {
    owns: (path) => path === '/api' || path.startsWith('/api/'),
    async handle(request) {
      const body = request.readBody ? await request.readBody() : undefined
      seen.push({ request, body })
      if (answer) return answer(request)
      const headers = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': JSON_LENGTH,
        etag: 'W/"abc"',
        'cache-control': 'public, max-age=60',
      }
      if (!gateway.owns(request.path)) {
        return {
          status: 404,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: '{"error":{"status":404}}',
        }
      }
      const inm = request.headers['if-none-match']
      if (inm === 'W/"abc"') return { status: 304, headers, body: null }
      return { status: 200, headers, body: request.method === 'HEAD' ? null : JSON_BODY }
    },
  }
  const last = () => {
    const entry = seen.at(-1)
    if (!entry) throw new Error('the gateway saw no request')
    return entry
  }
  return { gateway, seen, last }
}
