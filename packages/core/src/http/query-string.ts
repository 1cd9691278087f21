import { GatewayError } from './gateway-error.js'

/** Query parameters by name; a null-prototype map, so `__proto__` is just another name. */
export type QueryParameters = Map<string, string[]>

function decode(part: string, raw: string): string {
  if (!part.includes('%') && !part.includes('+')) return part
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '))
  } catch {
    throw new GatewayError(
      400,
      'invalid_query_encoding',
      `The query string has malformed percent-encoding near "${raw.slice(0, 40)}"`,
      {
        details: [
          {
            parameter: raw.split('=')[0]?.slice(0, 40) ?? '',
            problem: 'must be valid UTF-8 percent-encoding',
            rule: 'encoding',
          },
        ],
      },
    )
  }
}

/** A 414 for a query string of `length` characters, past the longest accepted. */
export function refuseLongQuery(length: number, maxLength: number): void {
  if (length > maxLength) {
    throw new GatewayError(
      414,
      'query_too_long',
      `The query string is ${length} characters long; at most ${maxLength} are accepted`,
      {
        details: [{ parameter: 'query', problem: `must be at most ${maxLength} characters`, rule: 'max_length' }],
      },
    )
  }
}

/**
 * The length of the query string parameters given as values would be written as
 * (`name=value&…`, percent-encoded, `null` left out), counted without writing it when it is
 * surely short: no character encodes to more than nine.
 */
export function queryLengthOf(params: Readonly<Record<string, unknown>>, maxLength: number): number {
  let plain = -1
  for (const name in params) {
    const value = params[name]
    if (value !== undefined && value !== null) plain += name.length + String(value).length + 2
  }
  if (plain <= 0 || plain * 9 <= maxLength) return Math.max(0, plain)
  let encoded = -1
  try {
    for (const name in params) {
      const value = params[name]
      if (value !== undefined && value !== null)
        encoded += encodeURIComponent(name).length + encodeURIComponent(String(value)).length + 2
    }
  } catch {
    // Text that is not valid Unicode: validation names it.
    return plain
  }
  return encoded
}

/**
 * Parses a raw query string, keeping repeated keys. Malformed percent-encoding and
 * over-long query strings are 4xx errors, never exceptions that escape as 500s.
 *
 * @example
 * parseQueryString('area=NO1&area=NO2', 4096).get('area') // ['NO1', 'NO2']
 */
export function parseQueryString(raw: string, maxLength: number): QueryParameters {
  refuseLongQuery(raw.length, maxLength)
  const parameters: QueryParameters = new Map()
  if (raw === '') return parameters
  for (const pair of raw.split('&')) {
    if (pair === '') continue
    const eq = pair.indexOf('=')
    const name = decode(eq === -1 ? pair : pair.slice(0, eq), pair)
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1), pair)
    const values = parameters.get(name)
    if (values) values.push(value)
    else parameters.set(name, [value])
  }
  return parameters
}
