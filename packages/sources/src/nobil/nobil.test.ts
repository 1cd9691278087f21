import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { FakeUpstream } from '@allmenning/core/testing'
import { parsePosition } from './charger-stations.js'
import { createFindChargingStations } from './find-charging-stations.js'
import { nobil } from './index.js'
import { FAKE_NOBIL_KEY, nobilReply, nobilSearchFixture, startFakeNobil } from './testing/fake-nobil.js'

let fake: FakeUpstream

const gatewayFor = (apiKey: string | undefined, timeoutMs = 1000) =>
  createGateway({
    sources: [nobil({ apiKey })],
    upstreams: { nobil: { baseUrl: fake.baseUrl, timeoutMs } },
    onError: () => {},
  })
const call = async (g: Gateway, query: string) => {
  const res = await g.handle({ method: 'GET', path: '/api/v1/kilder/nobil/find_charging_stations', query, headers: {} })
  return { ...res, json: JSON.parse(res.body ?? 'null') }
}
const osloS = 'lat=59.9111&lon=10.7528'

beforeAll(async () => {
  fake = await startFakeNobil()
})
afterAll(() => fake.close())

describe('find_charging_stations', () => {
  it('asks NOBIL near the point and answers a bare list, nearest first, with the fields clients read', async () => {
    const before = fake.requests.length
    const { status, json } = await call(gatewayFor(FAKE_NOBIL_KEY), `${osloS}&radius_km=5&limit=100`)
    expect(status).toBe(200)
    expect(v.is(createFindChargingStations(undefined).output, json.data)).toBe(true)
    const asked = new URL(fake.requests[before]!, 'http://x').searchParams
    expect(Object.fromEntries(asked)).toEqual({
      apikey: FAKE_NOBIL_KEY,
      apiversion: '3',
      action: 'search',
      type: 'near',
      lat: '59.911',
      long: '10.753',
      distance: '5000',
      limit: '500',
      format: 'json',
    })
    expect(json.data.map((s: { id: string }) => s.id)).toEqual(['NOR_01001', 'NOR_01003', 'NOR_01002', 'NOR_01004'])
    expect(json.data[0]).toEqual({
      id: 'NOR_01001',
      name: 'Oslo S P-hus',
      address: 'Schweigaards gate 15',
      postal_code: '0191',
      city: 'OSLO',
      municipality: 'Oslo',
      county: 'Oslo',
      owner: 'Oslo kommune',
      lat: 59.9101,
      lon: 10.7588,
      charging_points: 4,
      available_charging_points: 2,
      availability: 'Public',
      connectors: [
        { number: '1', type: 'Type 2', capacity: '22 kW - 400V 3-phase max 32A', status: 'AVAILABLE' },
        { number: '2', type: 'Type 2', capacity: '22 kW - 400V 3-phase max 32A', status: 'OCCUPIED' },
        { number: '3', type: 'Type 2', capacity: '22 kW - 400V 3-phase max 32A', status: null },
        { number: '4', type: 'Type 2', capacity: '22 kW - 400V 3-phase max 32A', status: null },
      ],
      updated: '2026-09-20T08:12:00',
      distance_km: 0.338,
    })
    // Numbers sent as text are numbers; "" is null; an empty connector list (PHP's []) is an empty list.
    const bjorvika = json.data.find((s: { id: string }) => s.id === 'NOR_01003')
    expect(bjorvika).toMatchObject({ name: 'Bjørvika hurtiglader', charging_points: 6, available_charging_points: 5 })
    expect(json.data.find((s: { id: string }) => s.id === 'NOR_01002').available_charging_points).toBeNull()
    expect(json.data.find((s: { id: string }) => s.id === 'NOR_01004').connectors).toEqual([])
  })

  it('never shows the key in what it answers', async () => {
    const { json, body } = await call(gatewayFor(FAKE_NOBIL_KEY), osloS)
    expect(body).not.toContain(FAKE_NOBIL_KEY)
    expect(json._provenance.data.source_api).toContain('apikey=***')
    expect(json._provenance.upstreams[0]).toMatchObject({
      id: 'nobil',
      publisher: 'Enova SF (NOBIL)',
      license: 'CC BY 4.0',
      calls: 1,
    })
  })

  it('keeps to the radius even when NOBIL sends farther stations, and leaves out stations without position', async () => {
    const { json } = await call(gatewayFor(FAKE_NOBIL_KEY), `${osloS}&radius_km=1`)
    expect(json.data.map((s: { id: string }) => s.id)).toEqual(['NOR_01001', 'NOR_01003'])
    const wide = await call(gatewayFor(FAKE_NOBIL_KEY), `${osloS}&radius_km=50`)
    expect(wide.json.data.map((s: { id: string }) => s.id)).toEqual([
      'NOR_01001',
      'NOR_01003',
      'NOR_01002',
      'NOR_01004',
      'NOR_1006',
    ])
    expect(wide.json.data.at(-1)).toMatchObject({ availability: null, name: 'Bekkestua' })
    expect(wide.json._raw_values).toEqual({ stations_from_nobil: 6 })
  })

  it('pages the list with limit and offset', async () => {
    const { json } = await call(gatewayFor(FAKE_NOBIL_KEY), `${osloS}&radius_km=50&limit=2&offset=2`)
    expect(json.data.map((s: { id: string }) => s.id)).toEqual(['NOR_01002', 'NOR_01004'])
    expect(json._meta.pagination).toMatchObject({ limit: 2, offset: 2, returned: 2, has_more_results: true, total: 5 })
  })

  it('says in _meta.capped when NOBIL gave the 500 stations it was asked for, so more may lie within the radius', async () => {
    const recorded = JSON.parse(nobilSearchFixture.toString('utf8')) as {
      chargerstations: { csmd: Record<string, unknown> }[]
    }
    const first = recorded.chargerstations[0]!
    // 500 copies of the first station, each its own id, a little north of the last.
    const many = Array.from({ length: 500 }, (_, i) => ({
      ...first,
      csmd: {
        ...first.csmd,
        id: 5000 + i,
        International_id: `NOR_${5000 + i}`,
        Position: `(${(59.911 + i * 0.0001).toFixed(4)},10.7528)`,
      },
    }))
    const full = await startFakeNobil()
    full.route('/search.php', () => nobilReply(JSON.stringify({ ...recorded, chargerstations: many })))
    const gateway = createGateway({
      sources: [nobil({ apiKey: FAKE_NOBIL_KEY })],
      upstreams: { nobil: { baseUrl: full.baseUrl } },
      onError: () => {},
    })
    try {
      const { status, json } = await call(gateway, `${osloS}&radius_km=15&limit=100`)
      expect(status).toBe(200)
      expect(json.data).toHaveLength(100)
      expect(json._meta.capped).toEqual({
        cap: 500,
        requested_limit: 100,
        reason: expect.stringMatching(/at most 500 stations/),
      })
      expect(json._meta.pagination).toMatchObject({
        returned: 100,
        has_more_results: true,
        next_offset: 100,
        total: 500,
      })
      expect(json._raw_values).toEqual({ stations_from_nobil: 500, nobil_search_limit_reached: 500 })
    } finally {
      await full.close()
    }
    // Fewer than asked for is all there is: no cap is said.
    expect(
      (await call(gatewayFor(FAKE_NOBIL_KEY), `${osloS}&radius_km=15&limit=100`)).json._meta.capped,
    ).toBeUndefined()
  })

  it('reads NOBIL positions, and refuses what is not one', () => {
    expect(parsePosition('(59.87447,10.49982)')).toEqual({ lat: 59.87447, lon: 10.49982 })
    expect(parsePosition('( 59.9 , -10.5 )')).toEqual({ lat: 59.9, lon: -10.5 })
    expect(parsePosition('')).toBeNull()
    expect(parsePosition('(0,0)')).toBeNull()
    expect(parsePosition('(95,10)')).toBeNull()
    expect(parsePosition('59.9,10.7')).toBeNull()
  })
})

describe('without its key, or with a wrong one', () => {
  it('answers 502 upstream_not_configured naming the variable, without calling NOBIL', async () => {
    const before = fake.requests.length
    const { status, json } = await call(gatewayFor(undefined), osloS)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ status: 502, code: 'upstream_not_configured', upstream: 'nobil' })
    expect(json.error.message).toBe(
      'Upstream NOBIL charging station register (nobil) needs an API key: set ALLMENNING_NOBIL_API_KEY',
    )
    expect(fake.requests.length).toBe(before)
    // A blank key counts as none.
    expect((await call(gatewayFor('  '), osloS)).json.error.code).toBe('upstream_not_configured')
  })

  it('answers a refused key as a 502 naming NOBIL, and never shows the key', async () => {
    const { status, json, body } = await call(gatewayFor('wrong-key-42'), osloS)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'nobil' })
    expect(json.error.message).toMatch(/refused the search: Invalid API key/)
    expect(body).not.toContain('wrong-key-42')
  })
})

describe('when NOBIL fails', () => {
  afterAll(() => fake.route('/search.php', () => nobilReply(nobilSearchFixture)))

  it.each([
    [
      'an error status',
      { status: 500, headers: { 'content-type': 'text/html' }, body: '<b>Fatal error</b>' },
      'upstream_error',
      /answered HTTP 500/,
    ],
    [
      'a refusal status',
      { status: 401, headers: { 'content-type': 'text/html' }, body: 'Unauthorized' },
      'upstream_error',
      /refused the configured API key \(HTTP 401\); check ALLMENNING_NOBIL_API_KEY/,
    ],
    [
      'a PHP warning before the JSON',
      {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<br />\n<b>Warning</b>: mysqli_connect(): ...{"chargerstations":[]}',
      },
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    [
      'no answer in time (it hangs)',
      { status: 200, delayMs: 2000, body: '{}' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming NOBIL', async (_name, reply, code, message) => {
    fake.route('/search.php', () => reply)
    const { status, json } = await call(gatewayFor(FAKE_NOBIL_KEY, 300), osloS)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code, upstream: 'nobil' })
    expect(json.error.message).toMatch(message)
  })
})
