import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'
import { osloDate } from '../../shared/oslo-time.js'
import { graphqlRoute, graphqlValidationError, missingVariable, type GraphqlQuestion } from './graphql-fake.js'
import { shiftIsoTime } from './recorded-time.js'

/** One of Entur's `VehicleUpdate`s, as the recording holds it (the fields the source's query asks). */
export interface RecordedVehicle {
  vehicleId: string | null
  mode: string | null
  location: { latitude: number; longitude: number } | null
  lastUpdated: string | null
  serviceJourney: { id: string; date: string | null } | null
  [field: string]: unknown
}

/**
 * Vehicles in Oslo and Bergen, written by us in the shape of Entur's answer to an unfiltered
 * `vehicles` query (trains without a destination and with the operating day in their id, a
 * bus on no line with `lineRef: ""`, an unmonitored bus without a bearing). No whole real
 * answer was seen: the shape follows Entur's schema (`entur/vehicle-positions`
 * `vehicle-updates.graphqls`) and how it fills the fields (`VehicleRepository.java`).
 */
export const enturVehiclePositions = (
  JSON.parse(readFileSync(new URL('./fixtures/vehicle-positions.json', import.meta.url), 'utf8')) as {
    data: { vehicles: RecordedVehicle[] }
  }
).data.vehicles

/** When the recording was "made": the demo moves every time by now minus this. */
export const VEHICLES_RECORDED_AT = Date.parse('2026-09-23T14:05:20+02:00')
const RECORDED_DAY = '2026-09-23'

const MODES = ['AIR', 'BUS', 'COACH', 'FERRY', 'METRO', 'RAIL', 'TAXI', 'TRAM']

/** The vehicle-positions fake, with every GraphQL question it was posted, parsed, oldest first. */
export interface FakeEnturVehicles extends FakeUpstream {
  questions: GraphqlQuestion[]
}

interface Box {
  minLat: number
  minLon: number
  maxLat: number
  maxLon: number
}

const isBox = (value: unknown): value is Box =>
  typeof value === 'object' &&
  value !== null &&
  ['minLat', 'minLon', 'maxLat', 'maxLon'].every((k) => typeof (value as Record<string, unknown>)[k] === 'number')

/** The recording as if made now: every time moved by the same amount, the operating day made today. */
function asOfNow(vehicle: RecordedVehicle, now: number): RecordedVehicle {
  const delta = now - VEHICLES_RECORDED_AT
  const today = osloDate(now)
  const text = JSON.stringify(vehicle).replaceAll(RECORDED_DAY, today)
  const moved = JSON.parse(text) as RecordedVehicle
  return { ...moved, lastUpdated: moved.lastUpdated ? shiftIsoTime(vehicle.lastUpdated!, delta) : null }
}

/**
 * A local Entur vehicle positions API: `POST /graphql` answers a `vehicles(boundingBox:, mode:)`
 * query with the recorded vehicles inside the box (all of them without one), of the mode asked,
 * in the recording's order, not by distance, as Entur answers. A mode Entur does not know, or a
 * box variable left null, is graphql-java's 200 with `errors`. With `demo: true` the recording
 * is played as of now: `lastUpdated` moved to the last few seconds, the operating day in train
 * ids and service journeys made today.
 *
 * @example
 * const vehicles = await startFakeEnturVehicles()
 * createGateway({ sources: [entur()], upstreams: { entur_vehicles: { baseUrl: vehicles.baseUrl } } })
 */
export async function startFakeEnturVehicles(options: { demo?: boolean } = {}): Promise<FakeEnturVehicles> {
  const questions: GraphqlQuestion[] = []
  const route = graphqlRoute(questions, ({ query, variables }) => {
    if (!/\bvehicles\s*\(/.test(query)) {
      return graphqlValidationError(
        "Validation error (FieldUndefined@[vehicles]) : Field 'vehicles' in type 'Query' is undefined",
      )
    }
    const box = variables['boundingBox']
    if (/\$boundingBox: BoundingBox!/.test(query) && box === undefined)
      return missingVariable('boundingBox', 'BoundingBox!')
    if (box !== undefined && box !== null && !isBox(box)) {
      return graphqlValidationError(
        "Variable 'boundingBox' has an invalid value: Expected type 'Float' but was 'String'.",
      )
    }
    const mode = variables['mode']
    if (mode !== undefined && mode !== null && !MODES.includes(String(mode))) {
      return graphqlValidationError(
        `Variable 'mode' has an invalid value: Invalid input for enum 'VehicleModeEnumeration'. No value found for name '${String(mode)}'`,
      )
    }
    const now = Date.now()
    const vehicles = enturVehiclePositions
      .filter((v) => mode === undefined || mode === null || v.mode === mode)
      .filter((v) => {
        if (!isBox(box)) return true
        const at = v.location
        return (
          at !== null &&
          at.latitude >= box.minLat &&
          at.latitude <= box.maxLat &&
          at.longitude >= box.minLon &&
          at.longitude <= box.maxLon
        )
      })
      .map((v) => (options.demo ? asOfNow(v, now) : v))
    return fakeReply.json({ data: { vehicles } }, { contentType: 'application/json' })
  })
  const fake = await startFakeUpstream({ '/graphql': route }, '/realtime/v2/vehicles')
  return Object.assign(fake, { questions })
}
