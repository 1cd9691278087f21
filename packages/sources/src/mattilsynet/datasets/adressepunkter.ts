import { DatasetFileError, DatasetRowError, defineDataset } from '@allmenning/core/source'
import { kartverketAdresser } from '../../geonorge/kartverket-upstreams.js'
import { placeKey } from '../address-key.js'
import { gridCell } from '../../shared/grid-cell.js'
import { ADDRESS_POINT_COLUMNS, ADDRESS_POINTS_FILE } from './address-points-file.js'
import { smilefjes } from './smilefjes.js'

export { ADDRESS_POINT_COLUMNS, ADDRESS_POINTS_FILE }

function coordinate(cell: string | undefined, column: string, min: number, max: number): number {
  const value = Number((cell ?? '').trim())
  if (!Number.isFinite(value) || value < min || value > max)
    throw new DatasetRowError(`${column} "${cell}" is not a coordinate within ${min}..${max}`)
  return value
}

/**
 * The smilefjes establishments' addresses placed on the map: each distinct address (street line
 * and postal code) looked up once in Kartverket's address register by
 * `geocodeEstablishmentAddresses`, which appends one line per address to
 * {@link ADDRESS_POINTS_FILE}. Derived from `mattilsynet_smilefjes`: `npx allmenning datasets
 * sync` runs a run of at most 5,000 requests after syncing it, and loads the file (`sync
 * mattilsynet_adressepunkter` runs it alone, `--budget <n>` sets its size). `placed` lines carry Kartverket's representation point
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
  attribution: "Positions from Kartverket's address register (Matrikkelen), © Kartverket, CC BY 4.0.",
  origin: {
    kind: 'derived',
    page: 'https://ws.geonorge.no/adresser/v1/',
    from: [smilefjes.id],
    action: 'placing addresses',
    // 5,000 requests at 10 a second: a run of about 8 min 20 s, a tenth of Norway's ~48,000 establishments.
    budget: 5000,
    requestsPerSecond: 10,
    upstreams: [kartverketAdresser],
    // The geocoding step's code is imported when a sync runs it: a gateway that serves the
    // dataset (and a serverless cold start) never evaluates it.
    derive: async (context) => (await import('../geocode/derive-address-points.js')).deriveAddressPoints(context),
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
          if (missing.length > 0)
            throw new DatasetFileError(
              `has no ${missing.join(', ')} column, so it is not a file the geocoding step wrote`,
            )
          const cell = (cells: string[], column: (typeof ADDRESS_POINT_COLUMNS)[number]) =>
            (cells[at.get(column)!] ?? '').trim()
          return (cells) => {
            const key = cell(cells, 'adresse_key')
            const status = cell(cells, 'status')
            if (!/\|\d{4}$/.test(key)) throw new DatasetRowError(`adresse_key "${key}" is not street|postal code`)
            if (status === 'not_found') {
              return {
                table: 'adressepunkter',
                row: {
                  adresse_key: key,
                  status,
                  lat: null,
                  lon: null,
                  celle: null,
                  kommunenummer: null,
                  kommunenavn: null,
                  kommunenavn_key: null,
                  adressetekst: null,
                  checked_at: cell(cells, 'checked_at') || null,
                },
              }
            }
            if (status !== 'placed') throw new DatasetRowError(`status "${status}" is neither placed nor not_found`)
            const lat = coordinate(cell(cells, 'lat'), 'lat', 57, 81.5)
            const lon = coordinate(cell(cells, 'lon'), 'lon', -10, 35)
            const kommunenavn = cell(cells, 'kommunenavn')
            return {
              table: 'adressepunkter',
              row: {
                adresse_key: key,
                status,
                lat,
                lon,
                celle: gridCell(lat, lon),
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
