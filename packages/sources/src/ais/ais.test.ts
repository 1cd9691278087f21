import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { createUpstreamClient, type OperationContext } from '@allmenning/core/source'
import { createAccessTokens } from './access-token.js'
import { barentswatchAis, barentswatchId } from './barentswatch-upstreams.js'
import { createFindVesselsNearby } from './find-vessels-nearby.js'
import { ais, type AisOptions } from './index.js'
import { FAKE_BARENTSWATCH_CLIENT, startFakeBarentswatch, type FakeBarentswatch } from './testing/fake-barentswatch.js'
import { createVesselPositions } from './vessel-positions.js'

let bw: FakeBarentswatch

const gatewayFor = (options: AisOptions = FAKE_BARENTSWATCH_CLIENT, timeoutMs = 1000) =>
  createGateway({
    sources: [ais(options)],
    upstreams: {
      barentswatch_id: { baseUrl: bw.id.baseUrl, timeoutMs },
      barentswatch_ais: { baseUrl: bw.ais.baseUrl, timeoutMs },
    },
    onError: () => {},
  })
const call = async (g: Gateway, query: string) => {
  const res = await g.handle({ method: 'GET', path: '/api/v1/kilder/ais/find_vessels_nearby', query, headers: {} })
  return { ...res, json: JSON.parse(res.body ?? 'null') }
}
const oslo = 'lat=59.905&lon=10.72'

beforeAll(async () => {
  bw = await startFakeBarentswatch()
})
afterAll(() => bw.close())
afterEach(() => {
  bw.snapshot()
  bw.tokens()
})

describe('find_vessels_nearby', () => {
  it('fetches a token and the snapshot once, and answers the vessels nearest first in the public gateway’s fields', async () => {
    const g = gatewayFor()
    const tokens = bw.issued.length
    const snapshots = bw.ais.requests.length
    const { status, json } = await call(g, `${oslo}&radius_km=5&limit=100`)
    expect(status).toBe(200)
    expect(v.is(createFindVesselsNearby(undefined).output, json.data)).toBe(true)
    expect(json.data.radius_km).toBe(5)
    expect(json.data.fartoy.map((f: { navn: string | null }) => f.navn)).toEqual([
      'TÅKEHEIMEN',
      'COLOR MAGIC',
      'SKOGØY',
      null,
    ])
    expect(json.data.fartoy[0]).toEqual({
      vessel_id: 258219000,
      navn: 'TÅKEHEIMEN',
      kallesignal: 'LCDK',
      imo: 9481207,
      skipstype: 60,
      lat: 59.905,
      lon: 10.72,
      fart_knop: 12.3,
      kurs: 112.3,
      retning: 113,
      navigasjonsstatus: 0,
      destinasjon: 'NESODDTANGEN',
      eta: '09-23 09:55 UTC',
      lengde_m: 70,
      bredde_m: 16,
      dypgang_m: 3.6,
      sist_oppdatert: '2026-09-23T09:38:37+00:00',
      avstand_km: 0,
    })
    // AIS "not available" values are null: heading 511, course 360, status 15, imo 0.
    const byName = (name: string) => json.data.fartoy.find((f: { navn: string }) => f.navn === name)
    expect(byName('SKOGØY')).toMatchObject({
      retning: null,
      kurs: null,
      navigasjonsstatus: 5,
      sist_oppdatert: '2026-09-23T09:38:12.1234567+00:00',
    })
    expect(byName('COLOR MAGIC')).toMatchObject({ kurs: null, retning: 320 })
    expect(json.data.fartoy[3]).toMatchObject({
      vessel_id: 257123450,
      imo: null,
      navigasjonsstatus: null,
      skipstype: 37,
    })
    expect(json._raw_values).toEqual({ vessels_in_snapshot: 7, reports_without_position: 2 })
    expect(bw.issued.length - tokens).toBe(1)
    expect(bw.ais.requests.slice(snapshots)).toEqual(['/v1/latest/combined?modelType=Full&modelFormat=Json'])
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({ id: 'barentswatch_ais', license: 'NLOD 2.0', calls: 1 }),
      expect.objectContaining({ id: 'barentswatch_id', calls: 1 }),
    ])
    expect(json._provenance.data.source_api).toBe(
      `${bw.ais.baseUrl}/v1/latest/combined?modelType=Full&modelFormat=Json`,
    )

    // The clients' own request: a point off Bergen, limit=100, reading data.fartoy.
    const bergen = await call(g, 'lat=60.39&lon=5.32&radius_km=12&limit=100')
    expect(
      bergen.json.data.fartoy.map((f: { vessel_id: number; navn: string; skipstype: number }) => [
        f.vessel_id,
        f.navn,
        f.skipstype,
      ]),
    ).toEqual([
      [257600000, 'FJORDKRYSS', 60],
      [257555000, 'HAVILLE', 30],
    ])
    const wide = await call(g, `${oslo}&radius_km=30`)
    expect(wide.json.data.fartoy.at(-1)).toMatchObject({ navn: 'KYSTVAKT', fart_knop: null, kallesignal: 'LAUN' })
    // Three questions, one token and one snapshot: the rest was filtered here.
    expect(bw.issued.length - tokens).toBe(1)
    expect(bw.ais.requests.length - snapshots).toBe(1)
    expect(wide.json._provenance.upstreams).toEqual([expect.objectContaining({ id: 'barentswatch_ais', calls: 0 })])
  })

  it('pages the vessels and says so inside data', async () => {
    const { json } = await call(gatewayFor(), `${oslo}&radius_km=5&limit=2&offset=1`)
    expect(json.data.fartoy.map((f: { vessel_id: number }) => f.vessel_id)).toEqual([259004000, 257044200])
    expect(json.data.has_more_results).toBe(true)
    expect(json._meta.pagination).toMatchObject({ limit: 2, offset: 1, returned: 2, has_more_results: true, total: 4 })
  })

  it('rejects a radius out of bounds with a 400 naming the bound', async () => {
    const { status, json } = await call(gatewayFor(), `${oslo}&radius_km=500`)
    expect(status).toBe(400)
    expect(json.error.details).toEqual([{ parameter: 'radius_km', problem: 'must be at most 200', rule: 'max_value' }])
  })
})

describe('tokens', () => {
  it('drops a token the API refuses and asks once more with a fresh one', async () => {
    const clients = new Map([
      [
        barentswatchId.id,
        createUpstreamClient({
          ...barentswatchId,
          baseUrl: bw.id.baseUrl,
          timeoutMs: 1000,
          userAgent: 'test',
          maxBodyBytes: 1e7,
        }),
      ],
      [
        barentswatchAis.id,
        createUpstreamClient({
          ...barentswatchAis,
          baseUrl: bw.ais.baseUrl,
          timeoutMs: 1000,
          userAgent: 'test',
          maxBodyBytes: 1e7,
        }),
      ],
    ])
    const ctx: OperationContext = {
      source: 'ais',
      operation: 'find_vessels_nearby',
      upstream: (u) => clients.get(u.id)!,
      dataset: () => {
        throw new Error('ais reads no dataset')
      },
    }
    const tokens = createAccessTokens(FAKE_BARENTSWATCH_CLIENT)
    const issued = bw.issued.length
    await createVesselPositions(tokens).get(ctx)
    bw.expireTokens()
    const before = bw.ais.requests.length
    const { vessels } = await createVesselPositions(tokens).get(ctx)
    expect(vessels).toHaveLength(7)
    expect(bw.issued.length - issued).toBe(2)
    expect(bw.ais.requests.length - before).toBe(2)
  })

  it('is a 502 when even a fresh token is refused', async () => {
    bw.snapshot(() => ({
      status: 401,
      headers: { 'content-type': 'application/problem+json; charset=utf-8' },
      body: '{"title":"Unauthorized","status":401}',
    }))
    const { status, json } = await call(gatewayFor(), oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'barentswatch_ais' })
    expect(json.error.message).toMatch(
      /refused a fresh access token \(HTTP 401\); check that the client has the scope ais/,
    )
  })
})

describe('without credentials, or with wrong ones', () => {
  it('answers 502 upstream_not_configured naming both variables, without calling BarentsWatch', async () => {
    const before = [bw.id.requests.length, bw.ais.requests.length]
    for (const options of [{}, { clientId: FAKE_BARENTSWATCH_CLIENT.clientId }, { clientId: ' ', clientSecret: 'x' }]) {
      const { status, json } = await call(gatewayFor(options), oslo)
      expect(status).toBe(502)
      expect(json.error).toMatchObject({ code: 'upstream_not_configured', upstream: 'barentswatch_ais' })
      expect(json.error.message).toBe(
        'Upstream BarentsWatch AIS (barentswatch_ais) needs an API key (a BarentsWatch API client with scope ais): set ALLMENNING_BARENTSWATCH_CLIENT_ID and ALLMENNING_BARENTSWATCH_CLIENT_SECRET',
      )
    }
    expect([bw.id.requests.length, bw.ais.requests.length]).toEqual(before)
  })

  it('answers refused credentials as a 502 naming the identity service, and never shows the secret', async () => {
    const { status, json, body } = await call(
      gatewayFor({ clientId: FAKE_BARENTSWATCH_CLIENT.clientId, clientSecret: 'wrong-secret' }),
      oslo,
    )
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'barentswatch_id' })
    expect(json.error.message).toBe(
      'Upstream BarentsWatch identity service (barentswatch_id) refused the configured client credentials (invalid_client); check ALLMENNING_BARENTSWATCH_CLIENT_ID and ALLMENNING_BARENTSWATCH_CLIENT_SECRET',
    )
    expect(body).not.toContain('wrong-secret')
  })
})

describe('an empty snapshot', () => {
  const realNow = Date.now
  const empty = () => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '[]' })
  afterEach(() => {
    Date.now = realNow
  })

  it('is a 502 naming BarentsWatch, not "no vessels", and is asked for again ten seconds later', async () => {
    bw.snapshot(empty)
    const g = gatewayFor()
    const first = await call(g, oslo)
    expect(first.status).toBe(502)
    expect(first.headers['cache-control']).toBe('no-store')
    expect(first.json.error).toMatchObject({ code: 'upstream_invalid_response', upstream: 'barentswatch_ais' })
    expect(first.json.error.message).toMatch(/sent an implausible AIS snapshot \(0 items, at least one expected\)/)
    bw.snapshot()
    const later = realNow() + 10_000
    Date.now = () => later
    const again = await call(g, oslo)
    expect(again.status).toBe(200)
    expect(again.json.data.fartoy.length).toBeGreaterThan(0)
  })

  it('does not replace the last good snapshot', async () => {
    const g = gatewayFor()
    const first = await call(g, `${oslo}&radius_km=20`)
    expect(first.json.data.fartoy.length).toBeGreaterThan(0)
    bw.snapshot(empty)
    const later = realNow() + 61_000
    Date.now = () => later
    const before = bw.ais.requests.length
    expect((await call(g, `${oslo}&radius_km=20`)).json.data.fartoy).toEqual(first.json.data.fartoy)
    await vi.waitFor(() => expect(bw.ais.requests.length - before).toBe(1))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await call(g, `${oslo}&radius_km=19`)).json.data.fartoy.length).toBeGreaterThan(0)
  })
})

describe('when BarentsWatch fails', () => {
  it.each([
    [
      'an error status',
      {
        status: 500,
        headers: { 'content-type': 'application/problem+json' },
        body: '{"title":"Internal Server Error","status":500}',
      },
      'upstream_error',
      /answered HTTP 500/,
    ],
    [
      'a body that is not the snapshot',
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"type":"FeatureCollection","features":[]}',
      },
      'upstream_invalid_response',
      /unexpected shape/,
    ],
    [
      'no answer in time (it hangs)',
      { status: 200, delayMs: 2000, headers: { 'content-type': 'application/json' }, body: '[]' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming BarentsWatch AIS', async (_name, reply, code, message) => {
    bw.snapshot(() => reply)
    const started = Date.now()
    const { status, json } = await call(gatewayFor(FAKE_BARENTSWATCH_CLIENT, 300), oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code, upstream: 'barentswatch_ais' })
    expect(json.error.message).toMatch(message)
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('answers a hanging identity service with a 502 naming it', async () => {
    bw.tokens(() => ({ status: 200, delayMs: 2000, body: '{}' }))
    const { status, json } = await call(gatewayFor(FAKE_BARENTSWATCH_CLIENT, 300), oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_timeout', upstream: 'barentswatch_id' })
  })
})
