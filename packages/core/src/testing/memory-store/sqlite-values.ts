import type { DatasetColumnType, DatasetValue } from '@allmenning/core/source'

// SQLite's rules for values, which the in-memory store follows so that it answers the same
// lookups with the same rows as the SQLite store: column affinity on what is stored and on
// what a column is compared with, and the order of values of different types.

/** A text SQLite reads as a number under numeric affinity: a well-formed integer or real, spaces around allowed. */
const NUMERIC_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/

/**
 * A number as SQLite writes it into a text column. Both SQLite bindings bind a JavaScript
 * number as a REAL, so `10` becomes `'10.0'`: a whole number in the 64-bit range with `.0`,
 * others with 15 significant digits or, where those do not give the number back, 17
 * (SQLite's own digits may differ in the 17th), in exponent form beyond `%g`'s range.
 *
 * @example
 * realAsText(10)   // '10.0'
 * realAsText(0.5)  // '0.5'
 * realAsText(1e20) // '1.0e+20'
 */
export function realAsText(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? 'Inf' : value < 0 ? '-Inf' : ''
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 63) return `${BigInt(value)}.0`
  let precision = 15
  if (Number(value.toPrecision(15)) !== value) precision = 17
  const [mantissa, exponentText] = value.toExponential(precision - 1).split('e') as [string, string]
  const exponent = Number(exponentText)
  const negative = mantissa.startsWith('-')
  const digits = mantissa.replace(/[-.]/g, '')
  const trim = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '.0') : `${text}.0`)
  let text: string
  if (exponent < -4 || exponent >= precision) {
    text = `${trim(`${digits[0]}.${digits.slice(1)}`)}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`
  } else if (exponent < 0) {
    text = trim(`0.${'0'.repeat(-exponent - 1)}${digits}`)
  } else {
    text = trim(`${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`)
  }
  return negative ? `-${text}` : text
}

/**
 * A value as a column of `type` holds it: a text column keeps numbers as text, an integer or
 * real column keeps text that reads as a number as that number (SQLite's column affinity).
 * The same conversion applies to a value a column is compared with.
 *
 * @example
 * withAffinity('integer', '42') // 42
 * withAffinity('text', 1975)    // '1975.0', as SQLite stores a bound number
 * withAffinity('integer', 'x')  // 'x'
 */
export function withAffinity(type: DatasetColumnType, value: DatasetValue): DatasetValue {
  if (value === null) return null
  if (type === 'text') return typeof value === 'number' ? realAsText(value) : value
  if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Number(value)
  return value
}

/** Code point order of two texts: SQLite's BINARY collation compares UTF-8 bytes, which sort as code points do. */
function compareText(a: string, b: string): number {
  if (a === b) return 0
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(i)!
    if (x !== y) return x < y ? -1 : 1
    if (x > 0xffff) i++
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0
}

/**
 * SQLite's order of two values: NULL before numbers, numbers before text, text in code point order.
 *
 * @example
 * [null, 'b', 2, 'a'].sort(compareValues) // [null, 2, 'a', 'b']
 */
export function compareValues(a: DatasetValue, b: DatasetValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0
  if (typeof a === 'number') return -1
  if (typeof b === 'number') return 1
  return compareText(a, b)
}
