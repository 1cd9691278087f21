import type { GatewayResponse } from './gateway-request.js'
import { weakEtag } from './etag.js'

export const jsonContentType = 'application/json; charset=utf-8'

/**
 * A JSON response with its body serialized once and `Content-Length` set from the bytes.
 */
export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): GatewayResponse {
  const body = JSON.stringify(value)
  return {
    status,
    headers: { 'content-type': jsonContentType, 'content-length': String(Buffer.byteLength(body)), ...headers },
    body,
  }
}

/** A response for a resource that only changes when the gateway's configuration does. */
export function staticResponse(value: unknown, maxAgeSeconds: number): GatewayResponse {
  const response = jsonResponse(200, value, { 'cache-control': `public, max-age=${maxAgeSeconds}` })
  response.headers.etag = weakEtag(response.body!)
  return response
}
