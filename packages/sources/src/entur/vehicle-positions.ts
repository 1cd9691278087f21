import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import { distanceKm, type Wgs84Point } from '../shared/wgs84-point.js'
import { described, maybeText, present } from './entur-fields.js'

/** The modes Entur's vehicle positions know (`VehicleModeEnumeration`). */
export const VEHICLE_MODES = ['AIR', 'BUS', 'COACH', 'FERRY', 'METRO', 'RAIL', 'TAXI', 'TRAM'] as const

/**
 * The vehicles query: every vehicle whose last position lies in the box, of one mode when
 * `$mode` is given (an explicit null filters nothing). Entur has no radius and no count here.
 */
export const VEHICLES_QUERY = `query VehiclesNearby($boundingBox: BoundingBox!, $mode: VehicleModeEnumeration) {
  vehicles(boundingBox: $boundingBox, mode: $mode) {
    vehicleId
    mode
    line { lineRef publicCode lineName }
    originName
    destinationName
    operator { operatorRef name }
    codespace { codespaceId }
    serviceJourney { id date }
    location { latitude longitude }
    lastUpdated
    bearing
    delay
    monitored
    vehicleStatus
    occupancyStatus
  }
}`

const text = v.optional(v.nullable(v.string()))
const number = v.optional(v.nullable(v.number()))

// Entur's VehicleUpdate, as much of it as the query asks; every field is nullable in its schema.
const vehicleUpdate = v.looseObject({
  vehicleId: text,
  mode: text,
  line: v.optional(v.nullable(v.looseObject({ lineRef: text, publicCode: text, lineName: text }))),
  originName: text,
  destinationName: text,
  operator: v.optional(v.nullable(v.looseObject({ operatorRef: text, name: text }))),
  codespace: v.optional(v.nullable(v.looseObject({ codespaceId: text }))),
  serviceJourney: v.optional(v.nullable(v.looseObject({ id: text, date: text }))),
  location: v.optional(v.nullable(v.looseObject({ latitude: number, longitude: number }))),
  lastUpdated: text,
  bearing: number,
  delay: number,
  monitored: v.optional(v.nullable(v.boolean())),
  vehicleStatus: text,
  occupancyStatus: text,
})

const answer = v.looseObject({ vehicles: v.nullable(v.array(v.nullable(vehicleUpdate))) })

/** A vehicle as `find_live_vehicles_nearby` answers it. */
export const liveVehicleSchema = v.object({
  vehicle_id: maybeText(
    "Entur's vehicle id, unchanged, as the operator reports it: for trains the train number and operating day (1137-2026-09-23)",
  ),
  mode: maybeText('AIR, BUS, COACH, FERRY, METRO, RAIL, TAXI or TRAM'),
  line: maybeText('The line number or code on the vehicle, e.g. 31, L2, F1'),
  line_name: maybeText('Name of the line'),
  line_ref: maybeText('Line id, e.g. RUT:Line:31'),
  destination: maybeText('Where the vehicle is going, as its sign shows; most trains and coaches publish none'),
  origin: maybeText('Where the journey started'),
  operator: maybeText('Name of the operator, when Entur knows it'),
  operator_ref: maybeText('Operator id, e.g. RUT:Operator:…'),
  codespace: maybeText('The data provider: RUT (Ruter), SKY (Skyss), VYG (Vy), ATB (AtB) …'),
  service_journey_id: maybeText('The service journey the vehicle runs, as JourneyPlanner knows it'),
  lat: described(v.number(), 'WGS84 latitude of the last reported position'),
  lon: described(v.number(), 'WGS84 longitude of the last reported position'),
  distance_m: described(v.number(), 'Distance from lat/lon in whole metres'),
  bearing: described(v.nullable(v.number()), 'Heading in degrees clockwise from north, when reported'),
  delay_seconds: described(v.nullable(v.number()), 'Delay against the timetable in seconds; negative is ahead of time'),
  monitored: described(v.nullable(v.boolean()), 'Whether the position comes from the vehicle (true) or is estimated'),
  status: maybeText('ASSIGNED, AT_ORIGIN, IN_PROGRESS, OFF_ROUTE, COMPLETED or CANCELLED, when reported'),
  occupancy: maybeText('How full it is (manySeatsAvailable, fewSeatsAvailable, standingRoomOnly, full, noData …)'),
  last_updated: maybeText('When the position was recorded, ISO 8601 with the offset Entur gives'),
})

/** One vehicle read from Entur's answer. */
export type LiveVehicle = v.InferOutput<typeof liveVehicleSchema>

/**
 * The vehicles of a vehicle-positions answer that stand within `radiusKm` of `center`, nearest
 * first (the same distance in vehicle id order): Entur searches a box and answers in no order.
 * A vehicle without a usable position is left out; it has no place to be near.
 *
 * @example
 * const vehicles = readLiveVehicles(client, data, { lat: 59.91, lon: 10.75 }, 1) // [{ vehicle_id: '…', distance_m: 42, … }]
 */
export function readLiveVehicles(
  client: UpstreamClient,
  data: unknown,
  center: Wgs84Point,
  radiusKm: number,
): LiveVehicle[] {
  const { vehicles } = checkUpstreamShape(client, answer, data, 'the vehicle positions')
  const found: LiveVehicle[] = []
  for (const update of vehicles ?? []) {
    if (!update) continue
    const position = { lat: update.location?.latitude, lon: update.location?.longitude }
    if (!isKnownPosition(position)) continue
    const km = distanceKm(center, position)
    if (km > radiusKm) continue
    found.push({
      vehicle_id: present(update.vehicleId),
      mode: present(update.mode),
      line: present(update.line?.publicCode),
      line_name: present(update.line?.lineName),
      line_ref: present(update.line?.lineRef),
      destination: present(update.destinationName),
      origin: present(update.originName),
      operator: present(update.operator?.name),
      operator_ref: present(update.operator?.operatorRef),
      codespace: present(update.codespace?.codespaceId),
      service_journey_id: present(update.serviceJourney?.id),
      lat: position.lat,
      lon: position.lon,
      distance_m: Math.round(km * 1000),
      bearing: update.bearing ?? null,
      delay_seconds: update.delay ?? null,
      monitored: update.monitored ?? null,
      status: present(update.vehicleStatus),
      occupancy: present(update.occupancyStatus),
      last_updated: present(update.lastUpdated),
    })
  }
  return found.sort((a, b) => a.distance_m - b.distance_m || (a.vehicle_id ?? '').localeCompare(b.vehicle_id ?? ''))
}
