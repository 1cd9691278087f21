import type { DatasetCondition, DatasetReader } from '@allmenning/core/source'
import { udirEnheter } from './datasets/udir-enheter.js'
import type { UdirRegister } from './udir-upstreams.js'
import type { ListedUnit } from './unit-payloads.js'
import type { KnownPosition } from './unit-register.js'
import type { CoordinatesStatus, PositionSource } from './unit-rows.js'

export { udirEnheter }

/** One row of the `udir_enheter` dataset's `enheter` table. */
export interface UnitRow {
  register: UdirRegister
  orgnr: string
  navn: string
  fullt_navn: string | null
  kommunenr: string | null
  fylkesnr: string | null
  aktiv: number
  flagg: string
  dato_endret: string | null
  posisjon: 'known' | 'none' | 'not_read'
  lat: number | null
  lon: number | null
  zoom: number | null
  geo_kilde: string | null
  adresse: string | null
  postnr: string | null
  poststed: string | null
  record_endret: string | null
  celle: string | null
  record: string | null
}

/** The columns a list reads: all but the record. */
const LIST_COLUMNS = [
  'register',
  'orgnr',
  'navn',
  'fullt_navn',
  'kommunenr',
  'fylkesnr',
  'aktiv',
  'flagg',
  'dato_endret',
  'posisjon',
  'lat',
  'lon',
  'zoom',
  'geo_kilde',
  'adresse',
  'postnr',
  'poststed',
  'record_endret',
] as const

/** Units of the dataset, listed, with the positions their records gave. */
export interface DatasetUnits {
  units: ListedUnit[]
  positions: PositionSource
  rows: UnitRow[]
}

function flagsOf(row: UnitRow): Record<string, boolean> {
  try {
    return JSON.parse(row.flagg) as Record<string, boolean>
  } catch {
    return {}
  }
}

/**
 * Rows of the dataset as the operations read them: each unit as listed, and its position
 * (`known`, `none`, or `not_synced` for a unit whose record the sync does not read).
 *
 * @example
 * const { units, positions } = asUnits(rows)
 */
export function asUnits(rows: UnitRow[]): DatasetUnits {
  const known = new Map<string, KnownPosition>()
  const status = new Map<string, CoordinatesStatus>()
  const units = rows.map((row): ListedUnit => {
    const position = {
      lat: row.lat,
      lon: row.lon,
      zoom: row.zoom,
      geoSource: row.geo_kilde,
      address:
        row.posisjon === 'not_read' ? null : { Adresse: row.adresse, Postnr: row.postnr, Poststed: row.poststed },
      changedAt: row.record_endret,
    }
    if (row.posisjon !== 'not_read') known.set(row.orgnr, { position, fetchedAt: 0 })
    status.set(row.orgnr, row.posisjon === 'not_read' ? 'not_synced' : row.posisjon)
    const flags = flagsOf(row)
    return {
      register: row.register,
      orgnr: row.orgnr,
      name: row.navn,
      fullName: row.fullt_navn,
      municipalityNumber: row.kommunenr,
      countyNumber: row.fylkesnr,
      active: row.aktiv === 1,
      flags,
      changedAt: row.dato_endret,
    }
  })
  return {
    units,
    rows,
    positions: {
      state: (unit) => status.get(unit.orgnr) ?? 'not_synced',
      position: (orgnr) => known.get(orgnr),
    },
  }
}

/**
 * The units of one register in a municipality or county, from the dataset: one lookup.
 *
 * @example
 * await unitsInArea(reader, 'nsr', { kind: 'kommune', number: '0301' })
 */
export async function unitsInArea(
  reader: DatasetReader,
  register: UdirRegister,
  area: { kind: 'kommune' | 'fylke'; number: string },
): Promise<DatasetUnits> {
  const where: Record<string, DatasetCondition> = {
    register,
    [area.kind === 'kommune' ? 'kommunenr' : 'fylkesnr']: area.number,
  }
  return asUnits(await reader.select<UnitRow>('enheter', { where, columns: LIST_COLUMNS }))
}

/**
 * The placed units of one register in the given grid cells, from the dataset: one lookup.
 *
 * @example
 * await unitsInCells(reader, 'nsr', ['5991:537', '5991:538']) // cells from shared/grid-cell.ts' cellsAround
 */
export async function unitsInCells(
  reader: DatasetReader,
  register: UdirRegister,
  cells: string[],
): Promise<DatasetUnits> {
  return asUnits(
    await reader.select<UnitRow>('enheter', { where: { register, celle: { in: cells } }, columns: LIST_COLUMNS }),
  )
}

/**
 * A unit's rows (one per register it is in), with its record, from the dataset.
 *
 * @example
 * await unitRecords(reader, '971200006') // [{ register: 'nsr', record: '{"Organisasjonsnummer":...}', ... }]
 */
export async function unitRecords(reader: DatasetReader, orgnr: string): Promise<UnitRow[]> {
  return reader.select<UnitRow>('enheter', { where: { orgnr } })
}
