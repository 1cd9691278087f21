import { DatasetRowError } from '@allmenning/core/source'

// Thousands separators seen in Norwegian files: space, no-break space, narrow no-break space.
const separators = /[\s\u00a0\u202f]/g
const digits = /^\d+$/

/**
 * A number as Norwegian files write it: a comma or a point as the decimal mark, spaces or
 * no-break spaces between thousands (`1 234 567,50`). Empty cells are `null`; anything else
 * that is not a number is a malformed record.
 *
 * @example
 * norwegianNumber('1\u00a0234\u00a0567,50', 'Innvilget beløp') // 1234567.5
 * norwegianNumber('', 'Innvilget beløp') // null
 */
export function norwegianNumber(cell: string | undefined, column: string): number | null {
  const text = (cell ?? '').replace(separators, '')
  if (text === '' || text === '-') return null
  const normalized = text.includes(',') && !text.includes('.') ? text.replace(',', '.') : text.replace(/,/g, '')
  if (!/^-?\d+(\.\d+)?$/.test(normalized)) throw new DatasetRowError(`${column} "${cell}" is not a number`)
  return Number(normalized)
}

/**
 * A whole count (shares), with the same separators: `12 500` or `12\u00a0500`.
 *
 * @example
 * wholeCount('12\u00a0500', 'Antall aksjer') // 12500
 */
export function wholeCount(cell: string | undefined, column: string): number {
  // Most counts are bare digits: no separators to remove.
  if (cell !== undefined && digits.test(cell)) return Number(cell)
  const text = (cell ?? '').replace(separators, '')
  if (!/^\d+$/.test(text)) throw new DatasetRowError(`${column} "${cell ?? ''}" is not a whole number`)
  return Number(text)
}
