import type { DatasetColumnType, DatasetValue } from '@allmenning/core/source'

// SQLite's rules for values, which the in-memory store follows so that it answers the same
// lookups with the same rows as the SQLite store: column affinity on what is stored and on
// what a column is compared with, and the order of values of different types.

/** A text SQLite reads as a number under numeric affinity: a well-formed integer or real, spaces around allowed. */
const NUMERIC_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/

/**
 * A value as a column of `type` holds it: a text column keeps numbers as text, an integer or
 * real column keeps text that reads as a number as that number (SQLite's column affinity).
 * The same conversion applies to a value a column is compared with.
 *
 * @example
 * withAffinity('integer', '42') // 42
 * withAffinity('text', 1975)    // '1975'
 * withAffinity('integer', 'x')  // 'x'
 */
export function withAffinity(type: DatasetColumnType, value: DatasetValue): DatasetValue {
  if (value === null) return null
  if (type === 'text') return typeof value === 'number' ? String(value) : value
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
