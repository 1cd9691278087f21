import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

interface VenueFeature {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: [number, number] }
  properties: Record<string, unknown> & { name: string }
}

/** Stop places, a group of stop places and a kiosk of the venue layer, as Entur's geocoder (Pelias) writes features. */
export const enturVenues = (JSON.parse(readFileSync(new URL('./fixtures/geocoder-venues.json', import.meta.url), 'utf8')) as { features: VenueFeature[] }).features

/** JourneyPlanner's `data.stopPlace` for the stop places the fake knows, by id. */
export const enturDepartures = JSON.parse(readFileSync(new URL('./fixtures/departures-by-stop.json', import.meta.url), 'utf8')) as Record<
  string,
  { id: string; name: string; estimatedCalls: unknown[] }
>

const fold = (text: string) => text.toLocaleLowerCase('nb').normalize('NFC')

function kmBetween(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2
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
    ...(features.length > 0 ? { bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)] } : {}),
  })
}

function peliasError(message: string): FakeReply {
  return fakeReply.json({ geocoding: { version: '0.2', errors: [message], timestamp: 1_795_000_000_000 }, type: 'FeatureCollection', features: [] }, { status: 400 })
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
 * without its required parameters is Pelias' 400 with `geocoding.errors`.
 *
 * @example
 * const geocoder = await startFakeEnturGeocoder()
 * createGateway({ sources: [entur()], upstreams: { entur_geocoder: { baseUrl: geocoder.baseUrl } } })
 */
export async function startFakeEnturGeocoder(): Promise<FakeUpstream> {
  return startFakeUpstream(
    {
      '/autocomplete': (url) => {
        const text = url.searchParams.get('text')
        if (!text) return peliasError('missing param \'text\'')
        const found = enturVenues.filter((f) => inLayers(url, f) && fold(f.properties.name).includes(fold(text)))
        return featureCollection({ text, size: sizeOf(url), layers: url.searchParams.get('layers')?.split(',') }, found.slice(0, sizeOf(url)))
      },
      '/reverse': (url) => {
        const lat = Number(url.searchParams.get('point.lat'))
        const lon = Number(url.searchParams.get('point.lon'))
        if (!url.searchParams.has('point.lat') || !url.searchParams.has('point.lon') || Number.isNaN(lat) || Number.isNaN(lon)) {
          return peliasError('missing param \'point.lat\' or \'point.lon\'')
        }
        const radius = Number(url.searchParams.get('boundary.circle.radius') ?? 1)
        const found = enturVenues
          .filter((f) => inLayers(url, f))
          .map((f) => ({ f, d: kmBetween({ lat, lon }, { lat: f.geometry.coordinates[1], lon: f.geometry.coordinates[0] }) }))
          .filter(({ d }) => d <= radius)
          .sort((a, b) => a.d - b.d)
          .map(({ f, d }) => ({ ...f, properties: { ...f.properties, distance: Math.round(d * 1000) / 1000 } }))
        return featureCollection({ 'point.lat': lat, 'point.lon': lon, 'boundary.circle.radius': radius, size: sizeOf(url) }, found.slice(0, sizeOf(url)))
      },
    },
    '/geocoder/v1',
  )
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** graphql-java's way of saying a variable is wrong: HTTP 200, `errors`, no `data`. */
export function graphqlValidationError(message: string): FakeReply {
  return fakeReply.json({ errors: [{ message, locations: [{ line: 1, column: 28 }], extensions: { classification: 'ValidationError' } }] })
}

/** The JourneyPlanner fake, with every GraphQL question it was posted, parsed, oldest first. */
export interface FakeJourneyPlanner extends FakeUpstream {
  questions: { query: string; variables: Record<string, unknown> }[]
}

/**
 * A local Entur JourneyPlanner v3: `POST /graphql` answers a `stopPlace(id:) { … estimatedCalls }`
 * query from the fixtures, the first `numberOfDepartures` calls; an unknown id is
 * `{"data":{"stopPlace":null}}` with HTTP 200, a missing variable a 200 with `errors`, a body
 * that is not JSON a 400 with `errors`, as GraphQL servers answer.
 *
 * @example
 * const journeyPlanner = await startFakeEnturJourneyPlanner()
 * createGateway({ sources: [entur()], upstreams: { entur_journey_planner: { baseUrl: journeyPlanner.baseUrl } } })
 */
export async function startFakeEnturJourneyPlanner(): Promise<FakeJourneyPlanner> {
  const questions: FakeJourneyPlanner['questions'] = []
  const fake = await startFakeUpstream(
    {
      '/graphql': async (_url, req) => {
        if (req.method !== 'POST') return fakeReply.status(405, 'Method Not Allowed')
        let question: { query?: unknown; variables?: Record<string, unknown> }
        try {
          question = JSON.parse(await bodyOf(req)) as typeof question
        } catch {
          return fakeReply.json({ errors: [{ message: 'Invalid JSON payload in POST request.' }] }, { status: 400 })
        }
        if (typeof question.query !== 'string' || !/stopPlace\(id: \$id\)[\s\S]*estimatedCalls\(/.test(question.query)) {
          return graphqlValidationError("Validation error (FieldUndefined@[stopPlace]) : Field 'stopPlace' in type 'QueryType' is undefined")
        }
        questions.push({ query: question.query, variables: question.variables ?? {} })
        const id = question.variables?.id
        const count = question.variables?.numberOfDepartures
        if (typeof id !== 'string') return graphqlValidationError("Variable 'id' has an invalid value: Variable 'id' has coerced Null value for NonNull type 'String!'")
        const stop = enturDepartures[id]
        if (!stop) return fakeReply.json({ data: { stopPlace: null } })
        const calls = typeof count === 'number' ? stop.estimatedCalls.slice(0, count) : stop.estimatedCalls
        return fakeReply.json({ data: { stopPlace: { ...stop, estimatedCalls: calls } } })
      },
    },
    '/journey-planner/v3',
  )
  return Object.assign(fake, { questions })
}
