import type { GatewayResponse } from './gateway-request.js'
import { weakEtagOfBytes } from './etag.js'

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

/**
 * A response for a resource that only changes when the gateway's configuration does: made
 * once and sent as is, its body encoded once (counted, hashed for the ETag, and written).
 */
export function staticResponse(value: unknown, maxAgeSeconds: number): GatewayResponse {
  const body = JSON.stringify(value)
  const bytes = Buffer.from(body)
  return {
    status: 200,
    headers: {
      'content-type': jsonContentType,
      'content-length': String(bytes.length),
      'cache-control': `public, max-age=${maxAgeSeconds}`,
      etag: weakEtagOfBytes(bytes),
    },
    body,
    encoded: { text: body, bytes },
  }
}
