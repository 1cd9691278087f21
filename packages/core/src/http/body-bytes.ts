import type { GatewayResponse } from './gateway-request.js'

/**
 * The bytes to write for an answer's body when the gateway holds them already, else undefined
 * (then the adapter encodes `body`, as for any answer). Undefined too when the answer's body is
 * no longer the text they were made from: a copy changed by an `onResponse` hook keeps the
 * original's `encoded` field, and its own body is what is sent.
 *
 * @example
 * // What to write: the bytes held for a cached answer, else its text.
 * const written = bodyBytes(response) ?? response.body
 */
export function bodyBytes(response: GatewayResponse): Uint8Array | undefined {
  const encoded = response.encoded
  // The same string as a rule (a hit's body is the cached one), so comparing is one pointer.
  return encoded !== undefined && encoded.text === response.body ? encoded.bytes : undefined
}
