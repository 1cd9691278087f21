/** The methods an HTTP server is asked for; any other is named `_OTHER`, as OpenTelemetry's conventions say. */
const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'CONNECT', 'TRACE'])

/**
 * A request method as a label or attribute: one of the known ones, else `_OTHER`, so a client
 * sending made-up methods cannot grow the number of series.
 *
 * @example
 * methodLabel('GET') // 'GET'
 * methodLabel('BREW') // '_OTHER'
 */
export function methodLabel(method: string): string {
  return knownMethods.has(method) ? method : '_OTHER'
}
