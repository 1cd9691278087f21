import { DatasetRowError } from '@allmenning/core/source'

/**
 * An organisation number as bulk files write it, as 9 digits: files pad it to 11 digits with
 * `00`, store it as a number that lost its leading zero or gained `.0`, or write `0` for a
 * foreign or unknown organisation. Empty and `0` are `null`; anything else that is not an
 * organisation number is a malformed record.
 *
 * @example
 * orgNrCell('00912345678', 'Org-nr') // '912345678'
 * orgNrCell('0', 'organisasjonsnummer') // null
 * orgNrCell('912345645.0', 'organisasjonsnummer') // '912345645'
 */
export function orgNrCell(cell: string | undefined, column: string): string | null {
  const text = (cell ?? '').replace(/[\s\u00a0]/g, '').replace(/\.0+$/, '')
  if (text === '' || /^0+$/.test(text)) return null
  if (!/^\d+$/.test(text)) throw new DatasetRowError(`${column} "${cell}" is not an organisation number`)
  if (text.length === 11 && text.startsWith('00')) return text.slice(2)
  if (text.length <= 9) return text.padStart(9, '0')
  throw new DatasetRowError(`${column} "${cell}" is not an organisation number`)
}
