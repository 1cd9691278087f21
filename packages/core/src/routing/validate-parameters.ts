import * as v from 'valibot'
import type { CompiledParameter } from '../compile/compile-parameters.js'
import { GatewayError, type ProblemDetail } from '../http/gateway-error.js'
import type { QueryParameters } from '../http/query-string.js'

const booleanWords: Record<string, boolean> = { yes: true, true: true, '1': true, no: false, false: false, '0': false }

type Coerced = { ok: true; value: unknown } | { ok: false; problem: ProblemDetail }

function coerce(parameter: CompiledParameter, raw: string): Coerced {
  const fail = (problem: string): Coerced => ({
    ok: false,
    problem: { parameter: parameter.name, problem, rule: 'type' },
  })
  switch (parameter.type) {
    case 'integer':
      return /^[+-]?\d{1,15}$/.test(raw)
        ? { ok: true, value: Number(raw) }
        : fail(`must be an integer (got "${raw.slice(0, 40)}")`)
    case 'number':
      // A decimal comma is accepted too (59,91), as the public gateway accepts it in coordinates.
      return /^[+-]?(\d{1,15}([.,]\d*)?|[.,]\d+)$/.test(raw)
        ? { ok: true, value: Number(raw.replace(',', '.')) }
        : fail(`must be a number (got "${raw.slice(0, 40)}")`)
    case 'boolean': {
      const value = booleanWords[raw.toLowerCase()]
      return value === undefined ? fail(`must be yes or no (got "${raw.slice(0, 40)}")`) : { ok: true, value }
    }
    default:
      return { ok: true, value: raw }
  }
}

function describeIssue(issue: v.BaseIssue<unknown>, parameter: CompiledParameter): { problem: string; rule: string } {
  const requirement = issue.requirement as unknown
  switch (issue.type) {
    case 'min_value':
      return { problem: `must be at least ${String(requirement)}`, rule: issue.type }
    case 'max_value':
      return { problem: `must be at most ${String(requirement)}`, rule: issue.type }
    case 'min_length':
      return { problem: `must be at least ${String(requirement)} characters long`, rule: issue.type }
    case 'max_length':
      return { problem: `must be at most ${String(requirement)} characters long`, rule: issue.type }
    case 'length':
      return { problem: `must be exactly ${String(requirement)} characters long`, rule: issue.type }
    case 'integer':
      return { problem: 'must be an integer', rule: issue.type }
    case 'picklist':
    case 'enum': {
      const options =
        (parameter.enum ?? []).map(String).join(', ') ||
        (issue.expected ?? '')
          .replace(/"/g, '')
          .replace(/ \| /g, ', ')
          .replace(/^\(|\)$/g, '')
      return { problem: `must be one of: ${options}`, rule: 'enum' }
    }
    default:
      // Custom checks and regexes carry the rule in their own message.
      return { problem: issue.message, rule: issue.type }
  }
}

/** A name that is not a parameter: one 400 naming every such name and the parameters accepted. */
function refuseUnknown(names: string[], parameters: CompiledParameter[], ignored: CompiledParameter[]): void {
  const known = new Set([...parameters, ...ignored].map((p) => p.name))
  const unknown = names.filter((name) => !known.has(name))
  if (unknown.length === 0) return
  const accepted = parameters.length > 0 ? parameters.map((p) => p.name).join(', ') : 'none'
  throw new GatewayError(
    400,
    'unknown_parameter',
    `Unknown query parameter ${unknown.map((n) => `"${n.slice(0, 40)}"`).join(', ')}; accepted: ${accepted}`,
    {
      details: unknown.map((name) => ({
        parameter: name.slice(0, 100),
        problem: `is not a parameter of this endpoint (accepted: ${accepted})`,
        rule: 'unknown',
      })),
    },
  )
}

/**
 * Reads each parameter's value with `read` (a coerced value, a problem, or undefined when it
 * is absent), applies its schema and default, and gathers every problem into one 400.
 */
function validate(
  read: (parameter: CompiledParameter) => Coerced | undefined,
  parameters: CompiledParameter[],
  ignored: CompiledParameter[],
): Record<string, unknown> {
  const effective: Record<string, unknown> = {}
  const problems: ProblemDetail[] = []
  for (const parameter of [...parameters, ...ignored]) {
    const given = read(parameter)
    let input: unknown
    if (given !== undefined) {
      if (!given.ok) {
        problems.push(given.problem)
        continue
      }
      input = given.value
    } else if (parameter.required) {
      problems.push({ parameter: parameter.name, problem: 'is required', rule: 'required' })
      continue
    }
    const result = v.safeParse(parameter.schema, input)
    if (result.success) {
      if (result.output !== undefined) effective[parameter.name] = result.output
    } else {
      for (const issue of result.issues)
        problems.push({ parameter: parameter.name, ...describeIssue(issue, parameter) })
    }
  }
  for (const parameter of ignored) delete effective[parameter.name]
  if (problems.length > 0) {
    const summary = problems.map((p) => `${p.parameter} ${p.problem}`).join('; ')
    throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${summary}`, { details: problems })
  }
  return effective
}

/**
 * Validates query parameters against compiled parameters: unknown names, repeated
 * parameters, values of the wrong type or out of bounds all become one 400 that names
 * every parameter at fault and the rule it broke. An empty value counts as absent.
 *
 * @returns the effective parameters, defaults applied, in declaration order
 */
export function validateParameters(
  query: QueryParameters,
  parameters: CompiledParameter[],
  ignored: CompiledParameter[] = [],
): Record<string, unknown> {
  refuseUnknown([...query.keys()], parameters, ignored)
  const repeated = [...query.entries()].filter(([, values]) => values.length > 1).map(([name]) => name)
  if (repeated.length > 0) {
    throw new GatewayError(
      400,
      'repeated_parameter',
      `Query parameter ${repeated.map((n) => `"${n}"`).join(', ')} is given more than once`,
      {
        details: repeated.map((name) => ({ parameter: name, problem: 'must be given at most once', rule: 'repeated' })),
      },
    )
  }
  return validate(
    (parameter) => {
      const raw = query.get(parameter.name)?.[0]
      return raw === undefined || raw === '' ? undefined : coerce(parameter, raw)
    },
    parameters,
    ignored,
  )
}

/** A value given as a value (not as query text), read as its text in a URL would be; fast where the two are the same. */
function coerceValue(parameter: CompiledParameter, value: unknown): Coerced | undefined {
  if (value === undefined || value === null || value === '') return undefined
  switch (typeof value) {
    case 'string':
      return coerce(parameter, value)
    case 'boolean':
      return parameter.type === 'boolean' ? { ok: true, value } : coerce(parameter, String(value))
    case 'number':
      // Safe integers below 10^15 read back from their text unchanged; anything else is judged as that text.
      return (parameter.type === 'integer' || parameter.type === 'number') &&
        Number.isInteger(value) &&
        Math.abs(value) < 1e15
        ? { ok: true, value }
        : coerce(parameter, String(value))
    default:
      return {
        ok: false,
        problem: {
          parameter: parameter.name,
          problem: `must be a string, number or boolean (got ${Array.isArray(value) ? 'an array' : typeof value})`,
          rule: 'type',
        },
      }
  }
}

/**
 * Validates parameters given as values, for a call made inside the process: judged as the
 * same values written in a query string would be (`"5"` and `5` are the same limit, `true`
 * and `"yes"` the same flag, `null` and `''` count as absent), with the same 400s, but without
 * writing or parsing any text.
 *
 * @example
 * validateValues({ area: 'NO1', limit: '5' }, operation.parameters) // { area: 'NO1', limit: 5, offset: 0 }
 */
export function validateValues(
  values: Readonly<Record<string, unknown>>,
  parameters: CompiledParameter[],
  ignored: CompiledParameter[] = [],
): Record<string, unknown> {
  refuseUnknown(
    Object.keys(values).filter((name) => values[name] !== undefined && values[name] !== null),
    parameters,
    ignored,
  )
  return validate(
    (parameter) => (Object.hasOwn(values, parameter.name) ? coerceValue(parameter, values[parameter.name]) : undefined),
    parameters,
    ignored,
  )
}
