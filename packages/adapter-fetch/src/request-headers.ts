import type { GatewayRequest } from '@allmenning/core'

/**
 * The core's header record from a Web `Headers`: the Fetch standard already lower-cases the
 * names and joins a repeated header's values with ", ", as Node's `req.headers` does for all
 * but a few (Node keeps the first of a repeated `Content-Type` or `User-Agent`, which Fetch
 * cannot split back safely, so they stay joined).
 *
 * @example
 * requestHeaders(new Headers([['If-None-Match', 'W/"a"'], ['if-none-match', 'W/"b"']]))
 * // { 'if-none-match': 'W/"a", W/"b"' }
 */
export function requestHeaders(headers: Headers): GatewayRequest['headers'] {
  const record: GatewayRequest['headers'] = {}
  headers.forEach((value, name) => {
    record[name] = value
  })
  return record
}
