import { DatasetFileError, DatasetRowError, defineDataset } from '@allmenning/core/source'
import { placeKey } from '../address-key.js'
import { gridCell } from '../grid-cell.js'

/** The columns of the placed-addresses file, in order. */
export const ADDRESS_POINT_COLUMNS = ['adresse_key', 'status', 'lat', 'lon', 'kommunenummer', 'kommunenavn', 'adressetekst', 'checked_at'] as const

/** The file the geocoding step keeps, in the data directory, across imports of the smilefjes file. */
export const ADDRESS_POINTS_FILE = 'mattilsynet-adressepunkter.csv'

function coordinate(cell: string | undefined, column: string, min: number, max: number): number {
  const value = Number((cell ?? '').trim())
  if (!Number.isFinite(value) || value < min || value > max) throw new DatasetRowError(`${column} "${cell}" is not a coordinate within ${min}..${max}`)
  return value
}

/**
 * The smilefjes establishments' addresses placed on the map: each distinct address (street line
 * and postal code) looked up once in Kartverket's address register by
 * `geocodeEstablishmentAddresses`, which appends one line per address to
 * {@link ADDRESS_POINTS_FILE} and is loaded with `npx allmenning datasets import
 * mattilsynet_adressepunkter <file>`. `placed` lines carry Kartverket's representation point
 * (WGS84) and municipality; `not_found` lines say Kartverket has no such address (retried
 * after 30 days). A later line for an address replaces an earlier one.
 */
export const adressepunkter = defineDataset({
  id: 'mattilsynet_adressepunkter',
  title: 'Mattilsynet smilefjes: addresses placed by Kartverket',
  description:
    "The smilefjes establishments' addresses with Kartverket's point and municipality for each, made by the geocoding step " +
    "from Kartverket's address register.",
  publisher: 'Kartverket (Norwegian Mapping Authority)',
  license: 'CC BY 4.0',
  attribution: 'Positions from Kartverket\'s address register (Matrikkelen), © Kartverket, CC BY 4.0.',
  origin: {
    kind: 'order',
    page: 'https://ws.geonorge.no/adresser/v1/',
    instructions:
      'Made here, not downloaded: run geocodeEstablishmentAddresses() from @allmenning/sources/mattilsynet after loading ' +
      `mattilsynet_smilefjes (it appends to ${ADDRESS_POINTS_FILE} in the data directory), then import that file.`,
  },
  changes: 'daily',
  tables: [
    {
      name: 'adressepunkter',
      columns: {
        adresse_key: 'text',
        status: 'text',
        lat: 'real',
        lon: 'real',
        celle: 'text',
        kommunenummer: 'text',
        kommunenavn: 'text',
        kommunenavn_key: 'text',
        adressetekst: 'text',
        checked_at: 'text',
      },
      indexes: [['adresse_key'], ['celle'], ['kommunenummer'], ['kommunenavn_key']],
      key: ['adresse_key'],
      keep: 'last',
    },
  ],
  files: [
    {
      name: ADDRESS_POINTS_FILE,
      content: {
        format: { type: 'delimited', delimiter: ';', quoting: 'rfc4180', encodings: ['utf-8'] },
        rows({ header }) {
          const at = new Map(header.map((name, i) => [name.trim(), i] as const))
          const missing = ADDRESS_POINT_COLUMNS.filter((column) => !at.has(column))
          if (missing.length > 0) throw new DatasetFileError(`has no ${missing.join(', ')} column, so it is not a file the geocoding step wrote`)
          const cell = (cells: string[], column: (typeof ADDRESS_POINT_COLUMNS)[number]) => (cells[at.get(column)!] ?? '').trim()
          return (cells) => {
            const key = cell(cells, 'adresse_key')
            const status = cell(cells, 'status')
            if (!/\|\d{4}$/.test(key)) throw new DatasetRowError(`adresse_key "${key}" is not street|postal code`)
            if (status === 'not_found') {
              return {
                table: 'adressepunkter',
                row: { adresse_key: key, status, lat: null, lon: null, celle: null, kommunenummer: null, kommunenavn: null, kommunenavn_key: null, adressetekst: null, checked_at: cell(cells, 'checked_at') || null },
              }
            }
            if (status !== 'placed') throw new DatasetRowError(`status "${status}" is neither placed nor not_found`)
            const lat = coordinate(cell(cells, 'lat'), 'lat', 57, 81.5)
            const lon = coordinate(cell(cells, 'lon'), 'lon', -10, 35)
            const kommunenavn = cell(cells, 'kommunenavn')
            return {
              table: 'adressepunkter',
              row: {
                adresse_key: key, status, lat, lon, celle: gridCell(lat, lon),
                kommunenummer: cell(cells, 'kommunenummer') || null,
                kommunenavn: kommunenavn || null,
                kommunenavn_key: kommunenavn ? placeKey(kommunenavn) : null,
                adressetekst: cell(cells, 'adressetekst') || null,
                checked_at: cell(cells, 'checked_at') || null,
              },
            }
          }
        },
      },
    },
  ],
})
