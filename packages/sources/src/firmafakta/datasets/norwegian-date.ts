import { DatasetRowError } from '@allmenning/core/source'

function iso(year: number, month: number, day: number, cell: string, column: string): string {
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new DatasetRowError(`${column} "${cell}" is not a date`)
  }
  return date.toISOString().slice(0, 10)
}

/**
 * A date as the publishers write it, as `YYYY-MM-DD`: `DD.MM.YYYY`, `DD.MM.YY` (years
 * 00–69 are 20xx: the registers start in 2002), ISO dates with or without a time
 * (`1994-12-16 00:00:00`), and the `YYYY-MM-DD` spreadsheet dates arrive as. Empty is `null`.
 *
 * @example
 * norwegianDate('05.03.21', 'Innvilget dato') // '2021-03-05'
 * norwegianDate('1994-12-16 00:00:00', 'soknadsdato') // '1994-12-16'
 */
export function norwegianDate(cell: string | undefined, column: string): string | null {
  const text = (cell ?? '').trim()
  if (text === '') return null
  let match = /^(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})$/.exec(text)
  if (match) {
    const short = match[3]!.length === 2
    const year = short ? (Number(match[3]) < 70 ? 2000 : 1900) + Number(match[3]) : Number(match[3])
    return iso(year, Number(match[2]), Number(match[1]), text, column)
  }
  match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/.exec(text)
  if (match) return iso(Number(match[1]), Number(match[2]), Number(match[3]), text, column)
  throw new DatasetRowError(`${column} "${text}" is not a date`)
}

/**
 * A period bound that publishers give either as a date or as a year alone (SkatteFUNN's
 * historical `Prosjektets fra-år`, Forskningsrådet's `prosjektstart`): a year stays `YYYY`,
 * anything else is read as {@link norwegianDate}. Empty is `null`.
 *
 * @example
 * yearOrDate('2013', 'prosjektstart') // '2013'
 * yearOrDate('01.07.2024', 'Fra-dato') // '2024-07-01'
 */
export function yearOrDate(cell: string | undefined, column: string): string | null {
  const text = (cell ?? '').trim()
  if (/^\d{4}$/.test(text)) return text
  return norwegianDate(text, column)
}
