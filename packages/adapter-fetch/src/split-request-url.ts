/** Where the authority (`user@host:port`) of a URL ends: at the path or, without one, at the query. */
const AUTHORITY_END = /[/?]/g

/**
 * The path and the raw query of a Web `Request`'s URL, cut from the URL text rather than
 * parsed again: the path stays percent-encoded (`%2F` and malformed escapes included) and the
 * query is exactly what the runtime kept of the client's, so repeated and percent-encoded
 * keys reach the core as sent. A fragment, which some runtimes keep in `request.url`, is
 * dropped.
 *
 * @example
 * splitRequestUrl('https://data.example.no/data/api/v1/kilder?a=1&a=%32')
 * // { path: '/data/api/v1/kilder', query: 'a=1&a=%32' }
 */
export function splitRequestUrl(url: string): { path: string; query: string } {
  const hash = url.indexOf('#')
  const whole = hash === -1 ? url : url.slice(0, hash)
  const scheme = whole.indexOf('://')
  AUTHORITY_END.lastIndex = scheme === -1 ? 0 : scheme + 3
  const authorityEnd = AUTHORITY_END.exec(whole)?.index ?? whole.length
  const mark = whole.indexOf('?', authorityEnd)
  const path = whole.slice(authorityEnd, mark === -1 ? undefined : mark)
  // A serialized http(s) URL always has a path; one without (no runtime makes it) is the root.
  return { path: path === '' ? '/' : path, query: mark === -1 ? '' : whole.slice(mark + 1) }
}
