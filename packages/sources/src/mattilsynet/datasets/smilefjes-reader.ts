import { DatasetFileError, DatasetRowError, type DatasetContent } from '@allmenning/core/source'
import { addressKey, placeKey } from '../address-key.js'

/** The smilefjes file's columns, as Mattilsynet names them. */
export const SMILEFJES_COLUMNS = [
  'tilsynsobjektid',
  'orgnummer',
  'navn',
  'adrlinje1',
  'adrlinje2',
  'postnr',
  'poststed',
  'tilsynid',
  'sakref',
  'status',
  'dato',
  'total_karakter',
  'tilsynsbesoektype',
  'tema1_no',
  'tema1_nn',
  'karakter1',
  'tema2_no',
  'tema2_nn',
  'karakter2',
  'tema3_no',
  'tema3_nn',
  'karakter3',
  'tema4_no',
  'tema4_nn',
  'karakter4',
] as const

type Column = (typeof SMILEFJES_COLUMNS)[number]
const REQUIRED: Column[] = [
  'tilsynsobjektid',
  'navn',
  'adrlinje1',
  'postnr',
  'poststed',
  'tilsynid',
  'dato',
  'total_karakter',
]

// Some four thousand distinct days in the whole file: each is checked once.
const seenDates = new Map<string, string>()

/**
 * `DDMMYYYY` (a leading zero sometimes lost, as a number would) as `YYYY-MM-DD`.
 *
 * @example
 * smilefjesDate('1062022') // '2022-06-01'
 */
export function smilefjesDate(cell: string): string {
  const known = seenDates.get(cell)
  if (known !== undefined) return known
  const text = cell.trim().padStart(8, '0')
  const match = /^(\d{2})(\d{2})(\d{4})$/.exec(text)
  if (!match) throw new DatasetRowError(`dato "${cell}" is not DDMMYYYY`)
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new DatasetRowError(`dato "${cell}" is not a date`)
  }
  const iso = date.toISOString().slice(0, 10)
  if (seenDates.size < 100_000) seenDates.set(cell, iso)
  return iso
}

/** A grade: 0–3 for the total; a theme's grade may also be 4 (not assessed) or 5 (not relevant). Empty is null. */
function grade(cell: string | undefined, column: string, max: number): number | null {
  const text = (cell ?? '').trim()
  if (text === '') return null
  if (!/^\d$/.test(text) || Number(text) > max) throw new DatasetRowError(`${column} "${text}" is not a grade 0–${max}`)
  return Number(text)
}

const orgNumber = (cell: string | undefined): string | null => {
  const text = (cell ?? '').replace(/\s/g, '')
  return /^\d{9}$/.test(text) ? text : null
}

/**
 * How the smilefjes file becomes rows: `;`-separated, UTF-8 with a byte-order mark, `dato` as
 * `DDMMYYYY`. Each record gives its inspection to `tilsyn`; a record newer than every earlier
 * one of its establishment (or as new) also gives the establishment a row in
 * `tilsynsobjekter`, and the table keeps the last row given, which is the newest.
 */
export const smilefjesContent: DatasetContent = {
  // Quoting is not seen in a real capture; rfc4180 with the reader's relaxed quotes reads both forms.
  format: { type: 'delimited', delimiter: ';', quoting: 'rfc4180', encodings: ['utf-8', 'windows-1252'] },
  rows({ header }) {
    const positions = new Map(header.map((name, i) => [name.trim().toLowerCase(), i] as const))
    const missing = REQUIRED.filter((column) => !positions.has(column))
    if (missing.length > 0) {
      throw new DatasetFileError(
        `has no ${missing.map((c) => `"${c}"`).join(', ')} column, so it is not Mattilsynet's smilefjes file (its header: ${header.slice(0, 12).join(';').slice(0, 200)})`,
      )
    }
    const at = (column: Column) => positions.get(column) ?? -1
    const cell = (cells: string[], column: Column) => {
      const i = at(column)
      return i < 0 ? '' : (cells[i] ?? '').trim()
    }
    // The newest date seen per establishment, so only a newer (or as new) record replaces its row.
    const newest = new Map<string, string>()
    return (cells) => {
      const id = cell(cells, 'tilsynsobjektid')
      const tilsynid = cell(cells, 'tilsynid')
      if (id === '' || tilsynid === '') throw new DatasetRowError('tilsynsobjektid or tilsynid is empty')
      const dato = smilefjesDate(cell(cells, 'dato'))
      const karakter = grade(cell(cells, 'total_karakter'), 'total_karakter', 3)
      const themes = [1, 2, 3, 4].map((n) => grade(cell(cells, `karakter${n}` as Column), `karakter${n}`, 5))
      const visit = cell(cells, 'tilsynsbesoektype')
      const tilsynsbesoektype = /^\d+$/.test(visit) ? Number(visit) : null
      const inspection = {
        table: 'tilsyn',
        row: {
          tilsynid,
          tilsynsobjektid: id,
          dato,
          karakter,
          karakter1: themes[0]!,
          karakter2: themes[1]!,
          karakter3: themes[2]!,
          karakter4: themes[3]!,
          tilsynsbesoektype,
          sakref: cell(cells, 'sakref') || null,
          status: cell(cells, 'status') || null,
        },
      }
      const before = newest.get(id)
      if (before !== undefined && before > dato) return inspection
      newest.set(id, dato)
      const postnr = cell(cells, 'postnr').padStart(4, '0')
      const poststed = cell(cells, 'poststed')
      const adrlinje1 = cell(cells, 'adrlinje1')
      return [
        inspection,
        {
          table: 'tilsynsobjekter',
          row: {
            tilsynsobjektid: id,
            orgnummer: orgNumber(cell(cells, 'orgnummer')),
            navn: cell(cells, 'navn'),
            adrlinje1: adrlinje1 || null,
            adrlinje2: cell(cells, 'adrlinje2') || null,
            postnr: /^\d{4}$/.test(postnr) ? postnr : null,
            poststed: poststed || null,
            poststed_key: placeKey(poststed),
            adresse_key: addressKey(adrlinje1, postnr),
            tilsynid,
            dato,
            karakter,
            tilsynsbesoektype,
            tema1: cell(cells, 'tema1_no') || null,
            karakter1: themes[0]!,
            tema2: cell(cells, 'tema2_no') || null,
            karakter2: themes[1]!,
            tema3: cell(cells, 'tema3_no') || null,
            karakter3: themes[2]!,
            tema4: cell(cells, 'tema4_no') || null,
            karakter4: themes[3]!,
          },
        },
      ]
    }
  },
}
