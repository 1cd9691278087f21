/**
 * Characters that cannot stand literally in a percent-encoded path: anything outside
 * RFC 3986 `pchar` and `/`, plus a `%` that does not start an escape.
 */
const NOT_IN_ENCODED_PATH = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu

/**
 * Re-escapes a path that API Gateway may have decoded. HTTP APIs (payload 2.0 `rawPath`, and
 * 1.0 `path`) hand the path over decoded, while REST APIs and ALB keep it encoded; since the
 * core wants it encoded, characters that can only appear decoded are escaped again. An already
 * encoded path passes through byte for byte. `%2F` decoded to `/` cannot be told apart and
 * stays a slash.
 *
 * @example
 * escapePath('/api/v1/kilder/a b')    // '/api/v1/kilder/a%20b'
 * escapePath('/api/v1/kilder/a%20b')  // unchanged
 */
export function escapePath(path: string): string {
  return path.replace(NOT_IN_ENCODED_PATH, (char) => {
    try {
      return encodeURIComponent(char)
    } catch {
      // A lone surrogate has no UTF-8 form; U+FFFD is what a decoder would have made of it.
      return '%EF%BF%BD'
    }
  })
}
