import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'
import { osloDate, osloDateTime } from '../../shared/oslo-time.js'
import { graphqlRoute, graphqlValidationError, missingVariable, type GraphqlQuestion } from './graphql-fake.js'

export { graphqlValidationError } from './graphql-fake.js'

interface VenueFeature {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: [number, number] }
  properties: Record<string, unknown> & { name: string }
}

/** Stop places, a group of stop places and a kiosk of the venue layer, as Entur's geocoder (Pelias) writes features. */
export const enturVenues = (
  JSON.parse(readFileSync(new URL('./fixtures/geocoder-venues.json', import.meta.url), 'utf8')) as {
    features: VenueFeature[]
  }
).features

/** JourneyPlanner's `data.stopPlace` for the stop places the fake knows, by id. */
export const enturDepartures = JSON.parse(
  readFileSync(new URL('./fixtures/departures-by-stop.json', import.meta.url), 'utf8'),
) as Record<string, { id: string; name: string; estimatedCalls: unknown[] }>

const fold = (text: string) => text.toLocaleLowerCase('nb').normalize('NFC')

function kmBetween(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h))
}

/** Pelias wraps its features with what it was asked and when. */
function featureCollection(query: Record<string, unknown>, features: VenueFeature[]): FakeReply {
  const lons = features.map((f) => f.geometry.coordinates[0])
  const lats = features.map((f) => f.geometry.coordinates[1])
  return fakeReply.json({
    geocoding: {
      version: '0.2',
      attribution: 'http://pelias.mapzen.com/v1/attribution',
      query,
      engine: { name: 'Pelias', author: 'Mapzen', version: '1.0' },
      timestamp: 1_795_000_000_000,
    },
    type: 'FeatureCollection',
    features,
    ...(features.length > 0
      ? { bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)] }
      : {}),
  })
}

function peliasError(message: string): FakeReply {
  return fakeReply.json(
    {
      geocoding: { version: '0.2', errors: [message], timestamp: 1_795_000_000_000 },
      type: 'FeatureCollection',
      features: [],
    },
    { status: 400 },
  )
}

const inLayers = (url: URL, feature: VenueFeature) => {
  const layers = url.searchParams.get('layers')
  return layers === null || layers.split(',').includes(String(feature.properties.layer))
}

const sizeOf = (url: URL) => Math.min(100, Math.max(1, Number(url.searchParams.get('size') ?? 10) || 10))

/**
 * A local Entur geocoder v1: `/autocomplete?text=…` finds venues whose name holds the text,
 * `/reverse?point.lat=…&point.lon=…&boundary.circle.radius=…` those within the radius (km),
 * nearest first with Pelias' `distance` (km); both honour `layers` and `size`. A request
 * without its required parameters is Pelias' 400 with `geocoding.errors`. With `demo: true` a
 * text that names no recorded venue finds the Oslo ones, as the real geocoder finds something
 * for nearly any text.
 *
 * @example
 * const geocoder = await startFakeEnturGeocoder()
 * createGateway({ sources: [entur()], upstreams: { entur_geocoder: { baseUrl: geocoder.baseUrl } } })
 */
export async function startFakeEnturGeocoder(options: { demo?: boolean } = {}): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/autocomplete': (url) => {
        const text = url.searchParams.get('text')
        if (!text) return peliasError("missing param 'text'")
        const named = enturVenues.filter((f) => inLayers(url, f) && fold(f.properties.name).includes(fold(text)))
        const found =
          named.length === 0 && options.demo
            ? enturVenues.filter((f) => inLayers(url, f) && f.properties['locality'] === 'Oslo')
            : named
        return featureCollection(
          { text, size: sizeOf(url), layers: url.searchParams.get('layers')?.split(',') },
          found.slice(0, sizeOf(url)),
        )
      },
      '/reverse': (url) => {
        const lat = Number(url.searchParams.get('point.lat'))
        const lon = Number(url.searchParams.get('point.lon'))
        if (
          !url.searchParams.has('point.lat') ||
          !url.searchParams.has('point.lon') ||
          Number.isNaN(lat) ||
          Number.isNaN(lon)
        ) {
          return peliasError("missing param 'point.lat' or 'point.lon'")
        }
        const radius = Number(url.searchParams.get('boundary.circle.radius') ?? 1)
        const found = enturVenues
          .filter((f) => inLayers(url, f))
          .map((f) => ({
            f,
            d: kmBetween({ lat, lon }, { lat: f.geometry.coordinates[1], lon: f.geometry.coordinates[0] }),
          }))
          .filter(({ d }) => d <= radius)
          .sort((a, b) => a.d - b.d)
          .map(({ f, d }) => ({ ...f, properties: { ...f.properties, distance: Math.round(d * 1000) / 1000 } }))
        return featureCollection(
          { 'point.lat': lat, 'point.lon': lon, 'boundary.circle.radius': radius, size: sizeOf(url) },
          found.slice(0, sizeOf(url)),
        )
      },
    },
    '/geocoder/v1',
  )
}

/** The JourneyPlanner fake, with every GraphQL question it was posted, parsed, oldest first. */
export interface FakeJourneyPlanner extends FakeUpstream {
  questions: GraphqlQuestion[]
}

const DAY_MS = 86_400_000
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

/**
 * The departures of a recorded stop place as if asked now: every time moved by the same whole
 * number of minutes so that the first aimed departure is a minute from now, each written with
 * Oslo's offset as JourneyPlanner writes it, and each operating day moved by as many days as
 * the first departure's (a call past midnight keeps the day before as its operating day).
 */
function departuresAsOfNow(stop: (typeof enturDepartures)[string], now: number): (typeof enturDepartures)[string] {
  const calls = stop.estimatedCalls as Record<string, unknown>[]
  const first = calls.map((c) => c['aimedDepartureTime']).find((t): t is string => typeof t === 'string')
  if (!first) return stop
  const delta = Math.ceil((now + 60_000 - Date.parse(first)) / 60_000) * 60_000
  const days = Math.round(
    (Date.parse(osloDate(Date.parse(first) + delta)) - Date.parse(osloDate(Date.parse(first)))) / DAY_MS,
  )
  const moved = calls.map((call) => {
    const out: Record<string, unknown> = { ...call }
    for (const [key, value] of Object.entries(call)) {
      if (key.endsWith('Time') && typeof value === 'string') out[key] = osloDateTime(Date.parse(value) + delta)
    }
    if (typeof call['date'] === 'string') out['date'] = addDays(call['date'], days)
    return out
  })
  return { ...stop, estimatedCalls: moved }
}

/**
 * A local Entur JourneyPlanner v3: `POST /graphql` answers a `stopPlace(id:) { … estimatedCalls }`
 * query from the fixtures, the first `numberOfDepartures` calls; an unknown id is
 * `{"data":{"stopPlace":null}}` with HTTP 200, a missing variable a 200 with `errors`, a body
 * that is not JSON a 400 with `errors`, as GraphQL servers answer. With `demo: true` the
 * departures are moved to start a minute from now, and any other NSR stop place id is answered
 * with the first recorded stop's departures under that id (and its name, where the geocoder
 * fixture knows it), as Entur answers for every real stop.
 *
 * @example
 * const journeyPlanner = await startFakeEnturJourneyPlanner()
 * createGateway({ sources: [entur()], upstreams: { entur_journey_planner: { baseUrl: journeyPlanner.baseUrl } } })
 */
export async function startFakeEnturJourneyPlanner(options: { demo?: boolean } = {}): Promise<FakeJourneyPlanner> {
  const questions: GraphqlQuestion[] = []
  const recorded = Object.values(enturDepartures)[0]!
  const route = graphqlRoute(questions, ({ query, variables }) => {
    if (!/stopPlace\(id: \$id\)[\s\S]*estimatedCalls\(/.test(query)) {
      return graphqlValidationError(
        "Validation error (FieldUndefined@[stopPlace]) : Field 'stopPlace' in type 'QueryType' is undefined",
      )
    }
    const id = variables['id']
    const count = variables['numberOfDepartures']
    if (typeof id !== 'string') return missingVariable('id', 'String!')
    let stop = enturDepartures[id]
    if (!stop && options.demo && /^NSR:StopPlace:\d+$/.test(id)) {
      const name = enturVenues.find((f) => f.properties['id'] === id)?.properties.name ?? recorded.name
      stop = { ...recorded, id, name }
    }
    if (!stop) return fakeReply.json({ data: { stopPlace: null } })
    if (options.demo) stop = departuresAsOfNow(stop, Date.now())
    const calls = typeof count === 'number' ? stop.estimatedCalls.slice(0, count) : stop.estimatedCalls
    return fakeReply.json({ data: { stopPlace: { ...stop, estimatedCalls: calls } } })
  })
  const fake = await startFakeUpstream({ '/graphql': route }, '/journey-planner/v3')
  return Object.assign(fake, { questions })
}
