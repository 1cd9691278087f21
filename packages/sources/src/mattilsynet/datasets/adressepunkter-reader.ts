import { DatasetFileError, DatasetRowError, type DatasetContent } from '@allmenning/core/source'
import { placeKey } from '../address-key.js'
import { gridCell } from '../../shared/grid-cell.js'
import { ADDRESS_POINT_COLUMNS } from './address-points-file.js'

function coordinate(cell: string | undefined, column: string, min: number, max: number): number {
  const value = Number((cell ?? '').trim())
  if (!Number.isFinite(value) || value < min || value > max)
    throw new DatasetRowError(`${column} "${cell}" is not a coordinate within ${min}..${max}`)
  return value
}

/**
 * How the geocoding step's file becomes rows: one line per address, `placed` with Kartverket's
 * point (WGS84) and municipality, or `not_found`. A later line for an address replaces an
 * earlier one.
 */
export const adressepunkterContent: DatasetContent = {
  format: { type: 'delimited', delimiter: ';', quoting: 'rfc4180', encodings: ['utf-8'] },
  rows({ header }) {
    const at = new Map(header.map((name, i) => [name.trim(), i] as const))
    const missing = ADDRESS_POINT_COLUMNS.filter((column) => !at.has(column))
    if (missing.length > 0)
      throw new DatasetFileError(`has no ${missing.join(', ')} column, so it is not a file the geocoding step wrote`)
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
}
