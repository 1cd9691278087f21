import { inspect } from 'node:util'
import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { GatewayObserver } from '@allmenning/core/extension'
import type { FakeUpstream } from '@allmenning/core/testing'
import { createGetNearestWaterTemperatures } from './get-nearest-water-temperatures.js'
import { badetemp } from './index.js'
import { FAKE_YR_BADETEMP_KEY, startFakeYrBadetemperaturer, yrTime } from './testing/fake-yr-badetemperaturer.js'

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeYrBadetemperaturer()
})
afterAll(() => fake.close())
afterEach(() => fake.failWith(undefined))

const gatewayFor = (
  apiKey: string | undefined,
  extra: { observers?: GatewayObserver[]; onError?: (e: unknown) => void; timeoutMs?: number } = {},
) =>
  createGateway({
    sources: [badetemp({ apiKey })],
    upstreams: { yr_badetemperaturer: { baseUrl: fake.baseUrl, timeoutMs: extra.timeoutMs ?? 2000 } },
    onError: extra.onError ?? (() => {}),
    ...(extra.observers ? { observers: extra.observers } : {}),
  })
const call = async (g: Gateway, operation: string, query: string) => {
  const res = await g.handle({ method: 'GET', path: `/api/v1/kilder/badetemp/${operation}`, query, headers: {} })
  return { status: res.status, body: res.body!, json: JSON.parse(res.body!) }
}
const since = (from: number) => fake.received.slice(from)
const oslo = 'lat=59.91&lon=10.75'
const names = (json: { data: { temperatures: { name: string }[] } }) => json.data.temperatures.map((t) => t.name)
const json200 = (body: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
})

describe('get_nearest_water_temperatures', () => {
  it('asks Yr for the point with the key in the apikey header and answers the shape clients read, nearest first', async () => {
    const from = fake.received.length
    const { status, json } = await call(gatewayFor(FAKE_YR_BADETEMP_KEY), 'get_nearest_water_temperatures', oslo)
    expect(status).toBe(200)
    expect(v.is(createGetNearestWaterTemperatures(undefined).output, json.data)).toBe(true)
    const asked = since(from)
    expect(asked.map((r) => r.path)).toEqual(['/locations/59.91,10.75/nearestwatertemperatures'])
    expect(asked[0]!.headers['apikey']).toBe(FAKE_YR_BADETEMP_KEY)
    expect([...asked[0]!.query.keys()]).toEqual([])
    // Six from Yr, and an odd row without a position, which is left out.
    expect(names(json)).toEqual(['Sørenga sjøbad', 'Huk', 'Langøyene', 'Årvolldammen', 'Sognsvann', 'Hvervenbukta'])
    expect(json.data.temperatures[0]).toEqual({
      location_id: '0-10031',
      name: 'Sørenga sjøbad',
      lat: 59.90334,
      lon: 10.75221,
      temperature_c: 7.2,
      time: yrTime('2026-11-20T09:12:00+01:00'),
      elevation: 0,
      county: 'Oslo fylke',
      municipality: 'Oslo kommune',
      source: 'Badevann.no',
      distance_km: 0.751,
    })
    expect(json.data.temperatures[4]).toMatchObject({ name: 'Sognsvann', source: null, elevation: 183 })
    expect(json.data).toMatchObject({ count: 6, radius_km: 50, attribution: 'Badetemperaturer levert av Yr' })
    expect(json._raw_values).toEqual({ points_from_yr: 7, left_out_unreadable: 1 })
    expect(json._provenance.upstreams[0].license).toMatch(/^Badetemperaturer levert av Yr/)
    expect(json._meta.capped).toBeUndefined()
  })

  it('names each measuring point as an entity linked to its own readings', async () => {
    const { json } = await call(gatewayFor(FAKE_YR_BADETEMP_KEY), 'get_nearest_water_temperatures', oslo)
    expect(json.entities[0]).toMatchObject({
      type: 'bathing_spot',
      id: '0-10031',
      name: 'Sørenga sjøbad',
      source: 'badetemp',
    })
    expect(json.entities[0]._links.self).toContain('/api/v1/kilder/badetemp/get_water_temperatures?location_id=0-10031')
    expect(json.entities).toHaveLength(json.data.temperatures.length)
  })

  it('leaves out a reading older than five days, as Yr’s terms ask', async () => {
    const { json } = await call(
      gatewayFor(FAKE_YR_BADETEMP_KEY),
      'get_nearest_water_temperatures',
      'lat=59.965&lon=10.638',
    )
    // Bogstadvannet, the nearest, was last read eight days before.
    expect(names(json)).not.toContain('Bogstadvannet')
    expect(names(json)[0]).toBe('Sognsvann')
    expect(json._raw_values).toMatchObject({ left_out_older_than_5_days: 1 })
  })

  it('says the cap of six in _meta.capped when more are asked for, and keeps to radius_km', async () => {
    const g = gatewayFor(FAKE_YR_BADETEMP_KEY)
    const { json } = await call(g, 'get_nearest_water_temperatures', `${oslo}&limit=50`)
    expect(json._meta.capped).toEqual({
      cap: 6,
      requested_limit: 50,
      reason: expect.stringMatching(/at most the 6 nearest/),
    })
    expect(json.data.temperatures).toHaveLength(6)
    const near = await call(g, 'get_nearest_water_temperatures', `${oslo}&radius_km=5`)
    expect(names(near.json)).toEqual(['Sørenga sjøbad', 'Huk', 'Langøyene'])
    // A place with fewer than six points: nothing was cut, so no cap is said.
    const tromso = await call(g, 'get_nearest_water_temperatures', 'lat=69.65&lon=18.96&limit=50')
    expect(names(tromso.json)).toEqual(['Telegrafbukta'])
    expect(tromso.json._meta.capped).toBeUndefined()
  })

  it('reads numbers sent as text, with a decimal comma, and leaves out what it cannot read', async () => {
    const now = new Date().toISOString()
    fake.failWith(
      json200([
        { locationName: 'A', locationId: '0-1', position: { lat: '59.9', lon: '10.7' }, temperature: '6,5', time: now },
        { locationName: 'B', locationId: '0-2', position: { lat: 59.91, lon: 10.71 }, temperature: null, time: now },
        { locationName: 'C', position: { lat: 59.91, lon: 10.71 }, temperature: 5, time: now },
        { locationName: 'D', locationId: 3, position: { lat: 59.92, lon: 10.72 }, temperature: 5, time: 'yesterday' },
        'not an object',
      ]),
    )
    const { status, json } = await call(gatewayFor(FAKE_YR_BADETEMP_KEY), 'get_nearest_water_temperatures', oslo)
    expect(status).toBe(200)
    expect(
      json.data.temperatures.map((t: { location_id: string; lat: number; temperature_c: number }) => [
        t.location_id,
        t.lat,
        t.temperature_c,
      ]),
    ).toEqual([['0-1', 59.9, 6.5]])
    expect(json._raw_values).toMatchObject({ left_out_unreadable: 4 })
  })

  it.each([
    ['lat=91&lon=10', 'lat'],
    ['lat=59.9', 'lon'],
    [`${oslo}&radius_km=51`, 'radius_km'],
    [`${oslo}&limit=101`, 'limit'],
  ])('answers %s with a 400 naming %s', async (query, parameter) => {
    const { status, json } = await call(gatewayFor(FAKE_YR_BADETEMP_KEY), 'get_nearest_water_temperatures', query)
    expect(status).toBe(400)
    expect(json.error.details[0].parameter).toBe(parameter)
  })
})

describe('get_water_temperatures', () => {
  it('answers a point’s readings from the last five days, newest first', async () => {
    const from = fake.received.length
    const { status, json } = await call(
      gatewayFor(FAKE_YR_BADETEMP_KEY),
      'get_water_temperatures',
      'location_id=0-10027',
    )
    expect(status).toBe(200)
    expect(since(from).map((r) => r.path)).toEqual(['/locations/0-10027/watertemperatures'])
    expect(json.data.location_id).toBe('0-10027')
    expect(json.data.attribution).toBe('Badetemperaturer levert av Yr')
    expect(json.data.temperatures.map((r: { temperature_c: number }) => r.temperature_c)).toEqual([
      3.8, 4.0, 4.3, 4.6, 4.9,
    ])
    expect(json._raw_values).toEqual({ readings_from_yr: 7, left_out_older_than_5_days: 2 })
  })

  it('answers 404 for a point Yr does not know, and 400 for what is not a point id', async () => {
    const g = gatewayFor(FAKE_YR_BADETEMP_KEY)
    const missing = await call(g, 'get_water_temperatures', 'location_id=0-99999')
    expect([missing.status, missing.json.error.code]).toEqual([404, 'entity_not_found'])
    const bad = await call(g, 'get_water_temperatures', 'location_id=..%2Fwatertemperatures')
    expect([bad.status, bad.json.error.details[0].parameter]).toEqual([400, 'location_id'])
  })
})

describe('badetemp and its key', () => {
  it('answers 502 upstream_not_configured naming the variable, without calling Yr, when no key is given', async () => {
    const from = fake.received.length
    for (const apiKey of [undefined, '  ']) {
      for (const [operation, query] of [
        ['get_nearest_water_temperatures', oslo],
        ['get_water_temperatures', 'location_id=0-10027'],
      ]) {
        const { status, json } = await call(gatewayFor(apiKey), operation!, query!)
        expect(status).toBe(502)
        expect(json.error).toMatchObject({ code: 'upstream_not_configured', upstream: 'yr_badetemperaturer' })
        expect(json.error.message).toBe(
          'Upstream Yr bathing temperatures (yr_badetemperaturer) needs an API key: set ALLMENNING_YR_BADETEMP_API_KEY',
        )
      }
    }
    expect(since(from)).toEqual([])
    const health = await gatewayFor(undefined).handle({ method: 'GET', path: '/api/v1/health', query: '', headers: {} })
    expect(health.body).toContain('not_configured')
    expect(health.body).toContain('ALLMENNING_YR_BADETEMP_API_KEY')
  })

  it('answers a refused key as a 502 naming Yr and the variable to check', async () => {
    const { status, json } = await call(gatewayFor('wrong-key-42'), 'get_nearest_water_temperatures', oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'yr_badetemperaturer' })
    expect(json.error.message).toMatch(
      /refused the configured API key \(HTTP 401\); check ALLMENNING_YR_BADETEMP_API_KEY/,
    )
  })

  it('never shows the key: not in an answer, a URL it names, an error, nor anything the gateway tells its observers', async () => {
    const heard: unknown[] = []
    const observer: GatewayObserver = {
      requestFinished: (e) => void heard.push(e),
      upstreamCallStarted: (e) => void heard.push(e),
      upstreamCallFinished: (e) => void heard.push(e),
      cacheLookup: (e) => void heard.push(e),
    }
    const errors: unknown[] = []
    const secret = 'S3cr3t-yr-key/with+chars=='
    const listen = { observers: [observer], onError: (e: unknown) => errors.push(e) }
    const wrong = await call(gatewayFor(secret, listen), 'get_nearest_water_temperatures', oslo)
    fake.failWith(
      {
        status: 500,
        headers: { 'content-type': 'text/html' },
        body: '<html><body>Internal Server Error</body></html>',
      },
      { times: 1 },
    )
    const failing = await call(
      gatewayFor(FAKE_YR_BADETEMP_KEY, listen),
      'get_water_temperatures',
      'location_id=0-10027',
    )
    const ok = await call(gatewayFor(FAKE_YR_BADETEMP_KEY, listen), 'get_nearest_water_temperatures', oslo)
    expect([wrong.status, failing.status, ok.status]).toEqual([502, 502, 200])
    const everything = [
      wrong.body,
      failing.body,
      ok.body,
      inspect(heard, { depth: 10 }),
      inspect(errors, { depth: 10 }),
      ...errors.map((e) => (e as Error).stack ?? ''),
    ].join('\n')
    for (const key of [secret, encodeURIComponent(secret), FAKE_YR_BADETEMP_KEY]) expect(everything).not.toContain(key)
    expect(heard.length).toBeGreaterThan(0)
  })
})

describe('when Yr fails', () => {
  it.each([
    [
      'an error status',
      { status: 503, headers: { 'content-type': 'text/html' }, body: '<html>Service Unavailable</html>' },
      'upstream_error',
      /answered HTTP 503/,
    ],
    [
      'an HTML page with status 200',
      { status: 200, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html></html>' },
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    [
      'something that is not a list',
      { status: 200, headers: { 'content-type': 'application/json' }, body: '"This is not a valid response"' },
      'upstream_invalid_response',
      /bathing temperatures/,
    ],
    [
      'no answer in time (it hangs)',
      { status: 200, delayMs: 2000, body: '[]' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming Yr', async (_name, reply, code, message) => {
    fake.failWith(reply)
    const { status, json } = await call(
      gatewayFor(FAKE_YR_BADETEMP_KEY, { timeoutMs: 300 }),
      'get_nearest_water_temperatures',
      oslo,
    )
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code, upstream: 'yr_badetemperaturer' })
    expect(json.error.message).toMatch(message)
  })
})
