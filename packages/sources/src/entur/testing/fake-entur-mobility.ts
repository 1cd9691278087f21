import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { graphqlRoute, graphqlValidationError, missingVariable, type GraphqlQuestion } from './graphql-fake.js'

interface RecordedVehicle {
  id: string
  lat: number
  lon: number
  isReserved: boolean
  isDisabled: boolean
  vehicleType: { formFactor: string; propulsionType: string }
  [field: string]: unknown
}

interface RecordedStation {
  id: string
  lat: number
  lon: number
  vehicleTypesAvailable: { vehicleType: { formFactor: string }; count: number }[]
  [field: string]: unknown
}

/**
 * Shared scooters, bicycles and a car in central Oslo and Trondheim, and the city-bike and car
 * stations there, written by us in the shape of Entur Mobility v2's answer (translated names as
 * `{ translation: [{ language, value }] }`, ids prefixed with the operator's codespace, a
 * disabled and a reserved scooter, an empty dock, a station not renting). No whole real answer
 * was seen: the shape follows Entur's schema (`entur/lamassu` `schema.graphqls`) and the rows
 * that clients of Entur and of the public gateway read.
 */
export const enturSharedMobility = JSON.parse(
  readFileSync(new URL('./fixtures/shared-mobility.json', import.meta.url), 'utf8'),
) as {
  data: { vehicles: RecordedVehicle[]; stations: RecordedStation[] }
}

const FORM_FACTORS = [
  'BICYCLE',
  'CARGO_BICYCLE',
  'CAR',
  'MOPED',
  'SCOOTER',
  'SCOOTER_STANDING',
  'SCOOTER_SEATED',
  'OTHER',
]

/** The Mobility v2 fake, with every GraphQL question it was posted, parsed, oldest first. */
export interface FakeEnturMobility extends FakeUpstream {
  questions: GraphqlQuestion[]
}

function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  // Redis' GEORADIUS, which Entur searches with, uses this Earth radius.
  const rad = Math.PI / 180
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2
  return 2 * 6_372_797.560856 * Math.asin(Math.sqrt(h))
}

/** The nearest `count` within `range` metres, then answered in id order: Entur collects them into a set. */
function nearestInSetOrder<T extends { id: string; lat: number; lon: number }>(
  items: T[],
  at: { lat: number; lon: number },
  range: number,
  count: unknown,
): T[] {
  const near = items
    .map((item) => ({ item, m: metres(at, item) }))
    .filter(({ m }) => m <= range)
    .sort((a, b) => a.m - b.m)
    .map(({ item }) => item)
  const kept = typeof count === 'number' ? near.slice(0, count) : near
  return kept.sort((a, b) => a.id.localeCompare(b.id))
}

/** The argument list of a root field in the query text, `lat: $lat, range: 500`, or undefined when the field is not asked. */
function argumentsOf(query: string, field: string): string | undefined {
  return new RegExp(`\\b${field}\\s*\\(([^)]*)\\)`).exec(query)?.[1]
}

/** What an argument of a root field is: its variable's value, or a literal number or Boolean written in the query. */
function argumentValue(query: string, field: string, name: string, variables: Record<string, unknown>): unknown {
  const match = new RegExp(`\\b${name}\\s*:\\s*(\\$\\w+|-?[\\d.]+|true|false)`).exec(argumentsOf(query, field) ?? '')
  if (!match) return undefined
  const written = match[1]!
  if (written.startsWith('$')) return variables[written.slice(1)]
  return written === 'true' ? true : written === 'false' ? false : Number(written)
}

// Lamassu checks these itself and answers a GraphQL error with its own message.
function lamassuError(message: string, field: string): FakeReply {
  return fakeReply.json({
    errors: [
      { message, locations: [{ line: 2, column: 3 }], path: [field], extensions: { classification: 'BAD_REQUEST' } },
    ],
    data: { [field]: null },
  })
}

/**
 * A local Entur Mobility v2: `POST /graphql` answers `vehicles(lat, lon, range, count,
 * formFactors, includeReserved, includeDisabled)` and `stations(lat, lon, range, count,
 * availableFormFactors)`, one or both in a question, from the recording: those within `range`
 * metres, the nearest `count`, answered in id order (not by distance, as Entur answers);
 * reserved and disabled vehicles only when asked; SCOOTER also finds SCOOTER_STANDING, as
 * Entur's deprecated name does. A missing position, a negative range or a count below 1 is a
 * GraphQL error in an HTTP 200. The fields not asked for (`vehicleTypesAvailable`) are left
 * out. Nothing in it depends on the time, so the demo plays it as it is.
 *
 * @example
 * const mobility = await startFakeEnturMobility()
 * createGateway({ sources: [entur()], upstreams: { entur_mobility: { baseUrl: mobility.baseUrl } } })
 */
export async function startFakeEnturMobility(): Promise<FakeEnturMobility> {
  const questions: GraphqlQuestion[] = []
  const route = graphqlRoute(questions, ({ query, variables }) => {
    const fields = (['vehicles', 'stations'] as const).filter((f) => argumentsOf(query, f) !== undefined)
    if (fields.length === 0) {
      return graphqlValidationError(
        "Validation error (FieldUndefined@[geofencing]) : Field 'geofencing' in type 'Query' is undefined",
      )
    }
    const data: Record<string, unknown> = {}
    for (const field of fields) {
      const arg = (name: string) => argumentValue(query, field, name, variables)
      for (const [name, type] of [
        ['lat', 'Float'],
        ['lon', 'Float'],
        ['range', 'Int'],
      ] as const) {
        if (typeof arg(name) !== 'number') return missingVariable(name, `${type}!`)
      }
      const at = { lat: arg('lat') as number, lon: arg('lon') as number }
      const range = arg('range') as number
      const count = arg('count')
      if (range < 0) return lamassuError('Range must be non-negative', field)
      if (count !== undefined && count !== null && (typeof count !== 'number' || count < 1))
        return lamassuError('Count must be positive', field)
      const factors = arg(field === 'vehicles' ? 'formFactors' : 'availableFormFactors')
      const wanted = Array.isArray(factors) ? factors.map(String) : null
      const unknown = wanted?.find((f) => !FORM_FACTORS.includes(f))
      if (unknown) {
        return graphqlValidationError(
          `Variable 'formFactors' has an invalid value: Invalid input for enum 'FormFactor'. No value found for name '${unknown}'`,
        )
      }
      const expanded = wanted?.includes('SCOOTER') ? [...wanted, 'SCOOTER_STANDING'] : wanted
      if (field === 'vehicles') {
        const candidates = enturSharedMobility.data.vehicles.filter(
          (v) =>
            (!expanded || expanded.includes(v.vehicleType.formFactor)) &&
            (arg('includeReserved') === true || !v.isReserved) &&
            (arg('includeDisabled') === true || !v.isDisabled),
        )
        data['vehicles'] = nearestInSetOrder(candidates, at, range, count)
      } else {
        const candidates = enturSharedMobility.data.stations.filter(
          (s) => !expanded || s.vehicleTypesAvailable.some((t) => expanded.includes(t.vehicleType.formFactor)),
        )
        data['stations'] = nearestInSetOrder(candidates, at, range, count).map((station) => {
          if (/vehicleTypesAvailable/.test(query)) return station
          const { vehicleTypesAvailable: _omitted, ...asked } = station
          return asked
        })
      }
    }
    return fakeReply.json({ data }, { contentType: 'application/json' })
  })
  const fake = await startFakeUpstream({ '/graphql': route }, '/mobility/v2')
  return Object.assign(fake, { questions })
}
