import { GatewayError } from './gateway-error.js'

/** Query parameters by name; a null-prototype map, so `__proto__` is just another name. */
export type QueryParameters = Map<string, string[]>

function decode(part: string, raw: string): string {
  if (!part.includes('%') && !part.includes('+')) return part
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '))
  } catch {
    throw new GatewayError(400, 'invalid_query_encoding', `The query string has malformed percent-encoding near "${raw.slice(0, 40)}"`, {
      details: [{ parameter: raw.split('=')[0]?.slice(0, 40) ?? '', problem: 'must be valid UTF-8 percent-encoding', rule: 'encoding' }],
    })
  }
}

/**
 * Parses a raw query string, keeping repeated keys. Malformed percent-encoding and
 * over-long query strings are 4xx errors, never exceptions that escape as 500s.
 *
 * @example
 * parseQueryString('area=NO1&area=NO2', 4096).get('area') // ['NO1', 'NO2']
 */
export function parseQueryString(raw: string, maxLength: number): QueryParameters {
  if (raw.length > maxLength) {
    throw new GatewayError(414, 'query_too_long', `The query string is ${raw.length} characters long; at most ${maxLength} are accepted`, {
      details: [{ parameter: 'query', problem: `must be at most ${maxLength} characters`, rule: 'max_length' }],
    })
  }
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
