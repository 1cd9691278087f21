import * as v from 'valibot'
import type { Station } from './stations.js'

/** A station as every operation of the source answers it. */
export const stationSchema = v.object({
  id: v.pipe(
    v.string(),
    v.description(
      "Bane NOR's station code, e.g. OSL (Oslo S), NTH (Nationaltheatret), SKØ (Skøyen); what get_station_board takes",
    ),
  ),
  name: v.pipe(v.string(), v.description('Name of the station')),
  lat: v.pipe(
    v.nullable(v.number()),
    v.description("WGS84 latitude (from Entur's National Stop Register); null for a code the table lacks"),
  ),
  lon: v.pipe(v.nullable(v.number()), v.description('WGS84 longitude; null for a code the table lacks')),
  nsr_stop_place_id: v.pipe(
    v.nullable(v.string()),
    v.description(
      "The station's StopPlace in Entur's National Stop Register (entur/get_departures takes it); null for a freight terminal",
    ),
  ),
  kind: v.pipe(
    v.picklist(['station', 'freight_terminal', 'unknown']),
    v.description('station, freight_terminal, or unknown for a code the table lacks'),
  ),
})

export type StationOutput = v.InferOutput<typeof stationSchema>

/**
 * A station of the table as the answers give it.
 *
 * @example
 * stationOutput(findStation('OSL')!) // { id: 'OSL', name: 'Oslo S', lat: 59.91092, lon: 10.75328, ... }
 */
export function stationOutput(station: Station): StationOutput {
  return {
    id: station.code,
    name: station.name,
    lat: station.lat,
    lon: station.lon,
    nsr_stop_place_id: station.nsrStopPlaceId,
    kind: station.kind,
  }
}
