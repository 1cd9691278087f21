import { GatewayError } from '@allmenning/core'
import type { TableMetadata } from './table-metadata.js'

/**
 * Most cells one `get_table_data` call may select. SSB's own limit is far higher (800 000 by
 * its `/config` in 2026, `upstreams-3.md §5`), but every cell becomes a row of some 150 bytes
 * here: 10 000 keeps an answer near 1.5 MB.
 */
export const MAX_CELLS = 10_000

/** One variable's part of a selection: the expressions as given, and the values they select. */
export interface VariableSelection {
  code: string
  expressions: string[]
  count: number
}

/** A selection checked against a table: what to send SSB and how many cells it selects. */
export interface CheckedSelection {
  variables: VariableSelection[]
  cells: number
}

function invalidSelection(problem: string): GatewayError {
  return new GatewayError(400, 'invalid_parameter', `Invalid parameter: selection ${problem}`, {
    details: [{ parameter: 'selection', problem, rule: 'format' }],
  })
}

/** Splits on `separator` outside parentheses and brackets, so `range(a,b)` stays whole. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = []
  let depth = 0
  let current = ''
  for (const char of text) {
    if (char === '(' || char === '[') depth++
    if (char === ')' || char === ']') depth = Math.max(0, depth - 1)
    if (char === separator && depth === 0) {
      parts.push(current)
      current = ''
    } else current += char
  }
  parts.push(current)
  return parts.map((part) => part.trim()).filter((part) => part !== '')
}

const FUNCTION = /^(top|bottom|from|to|range)\((.*)\)$/i

/** The values (by position) one expression selects of `codes`; a 400 naming the value when it names none there is. */
function resolve(expression: string, codes: string[], variable: string): number[] {
  const positionOf = (code: string) => {
    const at = codes.indexOf(code.replace(/^\[|\]$/g, '').trim())
    if (at < 0)
      throw invalidSelection(
        `names ${variable} value "${code.trim()}", which table does not have (see get_table_metadata)`,
      )
    return at
  }
  const all = codes.map((_, i) => i)
  const call = FUNCTION.exec(expression)
  if (call) {
    const name = call[1]!.toLowerCase()
    const args = splitTopLevel(call[2]!, ',')
    if (name === 'top' || name === 'bottom') {
      const [count, offset = '0'] = args
      if (!/^\d+$/.test(count ?? '') || !/^\d+$/.test(offset) || Number(count) < 1) {
        throw invalidSelection(
          `has ${expression} for ${variable}: ${name}() takes a count of 1 or more and an optional offset`,
        )
      }
      const n = Number(count)
      const skip = Number(offset)
      // top() counts from the end of the list (the latest periods), bottom() from its start.
      return name === 'top'
        ? all.slice(Math.max(0, codes.length - skip - n), Math.max(0, codes.length - skip))
        : all.slice(skip, skip + n)
    }
    if (name === 'from' && args.length === 1) return all.slice(positionOf(args[0]!))
    if (name === 'to' && args.length === 1) return all.slice(0, positionOf(args[0]!) + 1)
    if (name === 'range' && args.length === 2) {
      const a = positionOf(args[0]!)
      const b = positionOf(args[1]!)
      return all.slice(Math.min(a, b), Math.max(a, b) + 1)
    }
    throw invalidSelection(`has ${expression} for ${variable}: from() and to() take one value, range() two`)
  }
  if (/[*?]/.test(expression)) {
    const pattern = new RegExp(
      `^${expression
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    )
    return all.filter((i) => pattern.test(codes[i]!))
  }
  return [positionOf(expression)]
}

/**
 * Parses `selection` (`Region:0301,4601;ContentsCode:*;Tid:top(3)`) and checks it against the
 * table before SSB is called: every variable and value must exist, every variable that cannot
 * be eliminated must be selected, and the cells selected (the product of each variable's
 * count; an eliminated one counts 1) must be at most {@link MAX_CELLS}. Each failure is a 400
 * naming `selection` and saying what to change.
 *
 * Expressions are PxWebApi's: a code, `*` and `?` wildcards, `top(n)`, `bottom(n)`,
 * `from(code)`, `to(code)`, `range(a,b)`.
 *
 * @example
 * checkSelection('Region:0301;Tid:top(2)', table).cells // 2 when the table has one measure
 */
export function checkSelection(selection: string, table: TableMetadata, maxCells = MAX_CELLS): CheckedSelection {
  const chosen = new Map<string, VariableSelection>()
  for (const part of splitTopLevel(selection, ';')) {
    const colon = part.indexOf(':')
    if (colon <= 0) throw invalidSelection(`part "${part}" must be variable:values, e.g. Region:0301,4601`)
    const code = part.slice(0, colon).trim()
    const variable = table.variables.find((candidate) => candidate.code.toLowerCase() === code.toLowerCase())
    if (!variable) {
      throw invalidSelection(
        `names variable "${code}", which table ${table.table_id} does not have; it has ${table.variables.map((v) => v.code).join(', ')}`,
      )
    }
    if (chosen.has(variable.code)) throw invalidSelection(`names ${variable.code} twice`)
    const expressions = splitTopLevel(part.slice(colon + 1), ',')
    if (expressions.length === 0) throw invalidSelection(`gives no values for ${variable.code}`)
    const codes = variable.values.map((value) => value.code)
    const positions = new Set(expressions.flatMap((expression) => resolve(expression, codes, variable.code)))
    if (positions.size === 0) throw invalidSelection(`selects no value of ${variable.code}`)
    chosen.set(variable.code, { code: variable.code, expressions, count: positions.size })
  }
  if (chosen.size === 0) throw invalidSelection('must select values of at least one variable, e.g. Tid:top(1)')
  const missing = table.variables
    .filter((variable) => !variable.elimination && !chosen.has(variable.code))
    .map((variable) => variable.code)
  if (missing.length > 0) {
    throw invalidSelection(
      `must also select ${missing.join(', ')}: table ${table.table_id} cannot sum over ${missing.length === 1 ? 'it' : 'them'} (e.g. ${missing[0]}:*)`,
    )
  }
  const variables = table.variables.flatMap((variable) => chosen.get(variable.code) ?? [])
  const cells = variables.reduce((product, variable) => product * variable.count, 1)
  if (cells > maxCells) {
    const counts = variables.map((variable) => `${variable.code} ${variable.count}`).join(' × ')
    throw new GatewayError(
      400,
      'invalid_parameter',
      `Invalid parameter: selection selects ${cells} cells (${counts}); at most ${maxCells} per call`,
      {
        details: [
          {
            parameter: 'selection',
            problem: `selects ${cells} cells (${counts}); at most ${maxCells} per call: select fewer values`,
            rule: 'max_cells',
          },
        ],
      },
    )
  }
  return { variables, cells }
}
