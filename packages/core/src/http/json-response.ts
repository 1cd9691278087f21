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

/** A response for a resource that only changes when the gateway's configuration does. */
export function staticResponse(value: unknown, maxAgeSeconds: number): GatewayResponse {
  return madeOnceResponse(JSON.stringify(value), jsonContentType, {
    'cache-control': `public, max-age=${maxAgeSeconds}`,
  })
}

/**
 * A 200 made once and sent as is (a static answer, an explorer's file): its body encoded once,
 * for its Content-Length, its ETag and every write.
 *
 * @example
 * madeOnceResponse('body{}', 'text/css; charset=utf-8', { 'cache-control': 'public, max-age=3600' })
 */
export function madeOnceResponse(body: string, contentType: string, headers: Record<string, string>): GatewayResponse {
  const bytes = Buffer.from(body)
  return {
    status: 200,
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.length),
      etag: weakEtagOfBytes(bytes),
      ...headers,
    },
    body,
    encoded: { text: body, bytes },
  }
}
