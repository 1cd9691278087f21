import { normalizeName } from '@allmenning/core/source'
import { STATION_LINES } from './station-table.js'

/** A station (or freight terminal) with the code Bane NOR's answers use for it. */
export interface Station {
  /** Bane NOR's station code, upper case: OSL, NTH, SKØ. */
  code: string
  name: string
  lat: number
  lon: number
  /** The station's StopPlace in Entur's National Stop Register, for Entur's departures; null for a freight terminal. */
  nsrStopPlaceId: string | null
  kind: 'station' | 'freight_terminal'
}

function parseTable(lines: string): Station[] {
  return lines
    .split('\n')
    .filter((line) => line.includes('|'))
    .map((line) => {
      const [code, name, lat, lon, nsr] = line.split('|')
      return {
        code: code!,
        name: name!,
        lat: Number(lat),
        lon: Number(lon),
        nsrStopPlaceId: nsr ? `NSR:StopPlace:${nsr}` : null,
        kind: nsr ? ('station' as const) : ('freight_terminal' as const),
      }
    })
}

/** Every station of the table, by code. */
export const STATIONS: readonly Station[] = parseTable(STATION_LINES)

const byCode = new Map(STATIONS.map((s) => [s.code, s]))
const byNsrId = new Map(STATIONS.filter((s) => s.nsrStopPlaceId).map((s) => [s.nsrStopPlaceId!, s]))

/** "Nationaltheatret stasjon" and "Nationaltheatret" are one name; so are "Oslo S" and "oslo s". */
export const nameKey = (name: string) => normalizeName(name.replace(/\s+(stasjon|station|st\.?)$/i, ''))

const byName = new Map<string, Station>()
for (const station of STATIONS) {
  if (!byName.has(nameKey(station.name))) byName.set(nameKey(station.name), station)
}

/**
 * A code as Bane NOR writes it: trimmed and upper case, Norwegian letters kept (`skø` is `SKØ`).
 *
 * @example
 * normalizeCode(' skø ') // 'SKØ'
 */
export function normalizeCode(code: string): string {
  return code.trim().toLocaleUpperCase('nb')
}

/**
 * The station a client names: by Bane NOR code (any case), by NSR StopPlace id, or by name
 * ("Oslo S", "nationaltheatret", "Skøyen stasjon"); undefined when the table has none.
 *
 * @example
 * findStation('skø')?.name // 'Skøyen'
 * findStation('Oslo S')?.code // 'OSL'
 */
export function findStation(text: string): Station | undefined {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  return byCode.get(normalizeCode(trimmed)) ?? byNsrId.get(trimmed) ?? byName.get(nameKey(trimmed))
}

/**
 * The station a call of a SIRI answer is at: Bane NOR's answers give the code in StopPointRef;
 * where an NSR quay stands there instead, the stop's name decides.
 *
 * @example
 * stationOfCall('OSL', 'Oslo S')?.code // 'OSL'
 * stationOfCall('NSR:Quay:571', 'Oslo S')?.code // 'OSL'
 */
export function stationOfCall(stopPointRef: string | null, stopPointName: string | null): Station | undefined {
  if (stopPointRef && !stopPointRef.startsWith('NSR:')) {
    const station = byCode.get(normalizeCode(stopPointRef))
    if (station) return station
  }
  if (stopPointRef?.startsWith('NSR:StopPlace:')) {
    const station = byNsrId.get(stopPointRef)
    if (station) return station
  }
  return stopPointName ? byName.get(nameKey(stopPointName)) : undefined
}
