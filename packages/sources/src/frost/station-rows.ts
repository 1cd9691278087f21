import * as v from 'valibot'
import type { FrostStation } from './station-list.js'

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))
const nullableNumber = (description: string) => v.pipe(v.nullable(v.number()), v.description(description))

/** The fields of one station row, as the public gateway's clients read them (id, name, short_name, lat, lon, masl, valid_from). */
export const stationRowEntries = {
  id: v.pipe(v.string(), v.description("Frost's station id, e.g. SN18700 (Oslo - Blindern)")),
  name: nullableText('Name of the station as MET writes it, in capitals: OSLO - BLINDERN'),
  short_name: nullableText('Short name, e.g. Blindern'),
  lat: nullableNumber('WGS84 latitude'),
  lon: nullableNumber('WGS84 longitude'),
  masl: nullableNumber('Metres above sea level'),
  valid_from: nullableText('Since when the station has measured, ISO 8601'),
  county: nullableText('County, in capitals as Frost writes it: OSLO'),
  county_id: nullableNumber('County number as Frost has it: 3 for Oslo'),
  municipality: nullableText('Municipality, in capitals as Frost writes it: OSLO'),
  municipality_id: nullableNumber('Municipality number as Frost has it, without the leading zero: 301 for Oslo'),
  wmo_id: nullableNumber("The WMO's station number, for stations in the WMO network"),
  station_holders: v.pipe(v.array(v.string()), v.description('Who owns and runs the station, e.g. MET.NO')),
  distance_km: nullableNumber('Distance from lat/lon in kilometres, when a point was given'),
}

/**
 * A station as a row of the answers.
 *
 * @example
 * stationRow(station, 1.2) // { id: 'SN18700', name: 'OSLO - BLINDERN', ..., distance_km: 1.2 }
 */
export function stationRow(s: FrostStation, distanceKm: number | null) {
  return {
    id: s.id,
    name: s.name,
    short_name: s.shortName,
    lat: s.lat,
    lon: s.lon,
    masl: s.masl,
    valid_from: s.validFrom,
    county: s.county,
    county_id: s.countyId,
    municipality: s.municipality,
    municipality_id: s.municipalityId,
    wmo_id: s.wmoId,
    station_holders: s.stationHolders,
    distance_km: distanceKm,
  }
}
