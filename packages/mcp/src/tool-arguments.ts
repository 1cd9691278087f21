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
 * Writes a tool's arguments as the query string of the GET they stand for, so the route's own
 * validation judges them exactly as it judges a URL: the same coercion (`"5"` and `5` are the
 * same limit), the same unknown-parameter and bounds errors. Strings, numbers and booleans
 * pass; `null` counts as left out, as an empty query value does; anything else is a 400 that
 * names the argument, as the route would name a parameter.
 *
 * @example
 * toQueryString({ area: 'NO1', limit: 5, detailed: true, offset: null }) // 'area=NO1&limit=5&detailed=true'
 */
export function toQueryString(args: Record<string, unknown>): string {
  const parts: string[] = []
  const problems: ProblemDetail[] = []
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue
    const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined
    if (text === undefined) {
      problems.push({ parameter: name.slice(0, 100), problem: `must be a string, number or boolean (got ${Array.isArray(value) ? 'an array' : typeof value})`, rule: 'type' })
      continue
    }
    const key = encode(name)
    const encoded = encode(text)
    if (key === undefined || encoded === undefined) {
      problems.push({ parameter: key === undefined ? 'arguments' : name.slice(0, 100), problem: 'must be valid Unicode text', rule: 'encoding' })
      continue
    }
    parts.push(`${key}=${encoded}`)
  }
  if (problems.length > 0) {
    const summary = problems.map((p) => `${p.parameter} ${p.problem}`).join('; ')
    throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${summary}`, { details: problems })
  }
  return parts.join('&')
}
