import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import { distanceKm, type Wgs84Point } from '../shared/wgs84-point.js'
import { pickTranslation, translatedTextSchema } from './translated-text.js'
import { described, maybeText, present } from './entur-fields.js'

/** The form factors of Entur Mobility v2 (`FormFactor`); SCOOTER is Entur's deprecated name that also finds SCOOTER_STANDING. */
export const FORM_FACTORS = [
  'SCOOTER',
  'SCOOTER_STANDING',
  'SCOOTER_SEATED',
  'BICYCLE',
  'CARGO_BICYCLE',
  'CAR',
  'MOPED',
  'OTHER',
] as const

const translated = `{ translation { language value } }`
/**
 * Vehicles and stations around a point in one question. `range` is metres; `count` keeps the
 * nearest that many (Entur then answers them in no particular order); the Boolean filters are
 * always sent, since an explicit null would not fall back to their default.
 */
export const SHARED_MOBILITY_QUERY = `query SharedMobilityNearby(
  $lat: Float!, $lon: Float!, $range: Int!, $vehicleCount: Int!, $stationCount: Int!,
  $formFactors: [FormFactor], $includeReserved: Boolean!, $includeDisabled: Boolean!
) {
  vehicles(
    lat: $lat, lon: $lon, range: $range, count: $vehicleCount,
    formFactors: $formFactors, includeReserved: $includeReserved, includeDisabled: $includeDisabled
  ) {
    id
    lat
    lon
    isReserved
    isDisabled
    currentRangeMeters
    vehicleType { formFactor propulsionType }
    system { id name ${translated} operator { id name ${translated} } }
  }
  stations(lat: $lat, lon: $lon, range: $range, count: $stationCount, availableFormFactors: $formFactors) {
    id
    name ${translated}
    lat
    lon
    address
    capacity
    numVehiclesAvailable
    numDocksAvailable
    isRenting
    isReturning
    system { id name ${translated} operator { id name ${translated} } }
  }
}`

const text = v.optional(v.nullable(v.string()))
const number = v.optional(v.nullable(v.number()))
const flag = v.optional(v.nullable(v.boolean()))

const system = v.optional(
  v.nullable(
    v.looseObject({
      id: text,
      name: v.optional(v.nullable(translatedTextSchema)),
      operator: v.optional(v.nullable(v.looseObject({ id: text, name: v.optional(v.nullable(translatedTextSchema)) }))),
    }),
  ),
)

// Entur's Vehicle and Station, as much as the query asks; tolerant of nulls the schema forbids,
// since one odd vehicle of one operator's feed should not fail the whole answer.
const vehicle = v.looseObject({
  id: text,
  lat: number,
  lon: number,
  isReserved: flag,
  isDisabled: flag,
  currentRangeMeters: number,
  vehicleType: v.optional(v.nullable(v.looseObject({ formFactor: text, propulsionType: text }))),
  system,
})

const station = v.looseObject({
  id: text,
  name: v.optional(v.nullable(translatedTextSchema)),
  lat: number,
  lon: number,
  address: text,
  capacity: number,
  numVehiclesAvailable: number,
  numDocksAvailable: number,
  isRenting: flag,
  isReturning: flag,
  system,
})

const answer = v.looseObject({
  vehicles: v.nullable(v.array(v.nullable(vehicle))),
  stations: v.nullable(v.array(v.nullable(station))),
})

/** A shared vehicle as `find_shared_mobility_nearby` answers it. */
export const sharedVehicleSchema = v.object({
  id: described(v.string(), "Entur's id of the vehicle, e.g. YVO:Vehicle:…"),
  form_factor: maybeText(
    'SCOOTER_STANDING, SCOOTER_SEATED, BICYCLE, CARGO_BICYCLE, CAR, MOPED or OTHER (SCOOTER in older feeds)',
  ),
  propulsion: maybeText('HUMAN, ELECTRIC_ASSIST, ELECTRIC, COMBUSTION …'),
  lat: described(v.number(), 'WGS84 latitude'),
  lon: described(v.number(), 'WGS84 longitude'),
  distance_m: described(v.number(), 'Distance from lat/lon in whole metres'),
  reserved: described(v.boolean(), 'Reserved by someone (only with include_reserved=true)'),
  disabled: described(v.boolean(), 'Out of service (only with include_disabled=true)'),
  range_m: described(
    v.nullable(v.number()),
    'How far it can go on its charge or fuel, in metres, as the operator reports it',
  ),
  operator: maybeText('The operator, as Entur names it (e.g. VOI Technology Norway AS)'),
  operator_id: maybeText('Operator id, e.g. YVO:Operator:voi'),
  system_id: maybeText('The rental system, e.g. voioslo, oslobysykkel'),
  system_name: maybeText('Name of the rental system'),
})

/** A station (dock or parking area) as `find_shared_mobility_nearby` answers it. */
export const sharedStationSchema = v.object({
  id: described(v.string(), "Entur's id of the station, e.g. YOS:Station:…"),
  name: maybeText('Name of the station (Norwegian where the feed has it)'),
  address: maybeText('Street address, when the feed gives one'),
  lat: described(v.number(), 'WGS84 latitude'),
  lon: described(v.number(), 'WGS84 longitude'),
  distance_m: described(v.number(), 'Distance from lat/lon in whole metres'),
  vehicles_available: described(v.number(), 'Vehicles ready to rent there now'),
  docks_available: described(v.nullable(v.number()), 'Free docks to return a vehicle to, when the station has docks'),
  capacity: described(v.nullable(v.number()), 'Docks or parking places in all, when known'),
  renting: described(v.nullable(v.boolean()), 'Whether vehicles can be rented there now'),
  returning: described(v.nullable(v.boolean()), 'Whether vehicles can be returned there now'),
  operator: maybeText('The operator, as Entur names it'),
  system_id: maybeText('The rental system, e.g. oslobysykkel'),
  system_name: maybeText('Name of the rental system'),
})

export type SharedVehicle = v.InferOutput<typeof sharedVehicleSchema>
export type SharedStation = v.InferOutput<typeof sharedStationSchema>

const metres = (center: Wgs84Point, at: Wgs84Point) => Math.round(distanceKm(center, at) * 1000)
const byDistance = <T extends { distance_m: number; id: string }>(a: T, b: T) =>
  a.distance_m - b.distance_m || a.id.localeCompare(b.id)

/**
 * The vehicles and stations of a Mobility v2 answer, each nearest first (Entur answers the
 * nearest `count` in no order). One without an id or a usable position is left out: there is
 * nothing to point a client to.
 *
 * @example
 * const { vehicles, stations } = readSharedMobility(client, data, { lat: 59.91, lon: 10.75 })
 */
export function readSharedMobility(
  client: UpstreamClient,
  data: unknown,
  center: Wgs84Point,
): { vehicles: SharedVehicle[]; stations: SharedStation[] } {
  const parsed = checkUpstreamShape(client, answer, data, 'the shared mobility')
  const vehicles: SharedVehicle[] = []
  for (const item of parsed.vehicles ?? []) {
    const id = present(item?.id)
    const position = { lat: item?.lat, lon: item?.lon }
    if (!item || !id || !isKnownPosition(position)) continue
    vehicles.push({
      id,
      form_factor: present(item.vehicleType?.formFactor),
      propulsion: present(item.vehicleType?.propulsionType),
      lat: position.lat,
      lon: position.lon,
      distance_m: metres(center, position),
      reserved: item.isReserved ?? false,
      disabled: item.isDisabled ?? false,
      range_m: item.currentRangeMeters ?? null,
      operator: pickTranslation(item.system?.operator?.name),
      operator_id: present(item.system?.operator?.id),
      system_id: present(item.system?.id),
      system_name: pickTranslation(item.system?.name),
    })
  }
  const stations: SharedStation[] = []
  for (const item of parsed.stations ?? []) {
    const id = present(item?.id)
    const position = { lat: item?.lat, lon: item?.lon }
    // numVehiclesAvailable is non-null in Entur's schema: a station without it was never answered so.
    if (!item || !id || !isKnownPosition(position) || typeof item.numVehiclesAvailable !== 'number') continue
    stations.push({
      id,
      name: pickTranslation(item.name),
      address: present(item.address),
      lat: position.lat,
      lon: position.lon,
      distance_m: metres(center, position),
      vehicles_available: item.numVehiclesAvailable,
      docks_available: item.numDocksAvailable ?? null,
      capacity: item.capacity ?? null,
      renting: item.isRenting ?? null,
      returning: item.isReturning ?? null,
      operator: pickTranslation(item.system?.operator?.name),
      system_id: present(item.system?.id),
      system_name: pickTranslation(item.system?.name),
    })
  }
  return { vehicles: vehicles.sort(byDistance), stations: stations.sort(byDistance) }
}
