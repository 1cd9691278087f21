import { GatewayError, type ProblemDetail } from '@allmenning/core'

function encode(text: string): string | undefined {
  try {
    return encodeURIComponent(text)
  } catch {
    // A lone surrogate cannot be UTF-8 encoded.
    return undefined
  }
}

/**
 * Checks a tool's arguments as the parameters of the GET they stand for: strings, numbers and
 * booleans pass; `null` counts as left out, as an empty query value does; anything else, or
 * text that is not valid Unicode, is a 400 that names the argument, as the route would name a
 * parameter. `write` is called with each argument that passes and its value's text.
 */
function eachArgument(
  args: Record<string, unknown>,
  write: (name: string, value: string | number | boolean, key: string, text: string) => void,
): void {
  const problems: ProblemDetail[] = []
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      problems.push({
        parameter: name.slice(0, 100),
        problem: `must be a string, number or boolean (got ${Array.isArray(value) ? 'an array' : typeof value})`,
        rule: 'type',
      })
      continue
    }
    const key = encode(name)
    const encoded = encode(typeof value === 'string' ? value : String(value))
    if (key === undefined || encoded === undefined) {
      problems.push({
        parameter: key === undefined ? 'arguments' : name.slice(0, 100),
        problem: 'must be valid Unicode text',
        rule: 'encoding',
      })
      continue
    }
    write(name, value, key, encoded)
  }
  if (problems.length > 0) {
    const summary = problems.map((p) => `${p.parameter} ${p.problem}`).join('; ')
    throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${summary}`, { details: problems })
  }
}

/**
 * Writes a tool's arguments as the query string of the GET they stand for, so the route's own
 * validation judges them exactly as it judges a URL: the same coercion (`"5"` and `5` are the
 * same limit), the same unknown-parameter and bounds errors.
 *
 * @example
 * toQueryString({ area: 'NO1', limit: 5, detailed: true, offset: null }) // 'area=NO1&limit=5&detailed=true'
 */
export function toQueryString(args: Record<string, unknown>): string {
  const parts: string[] = []
  eachArgument(args, (_name, _value, key, text) => parts.push(`${key}=${text}`))
  return parts.join('&')
}

/**
 * A tool's arguments as the parameters of the operation GET they stand for, checked as
 * {@link toQueryString} checks them, for the gateway to validate as values; `null` is left out.
 *
 * @example
 * toParameters({ area: 'NO1', limit: 5, offset: null }) // { area: 'NO1', limit: 5 }
 */
export function toParameters(args: Record<string, unknown>): Record<string, string | number | boolean> {
  const params: Record<string, string | number | boolean> = {}
  eachArgument(args, (name, value) => {
    // Defined as own data, so a name such as __proto__ is a parameter name like any other.
    Object.defineProperty(params, name, { value, enumerable: true, writable: true, configurable: true })
  })
  return params
}
