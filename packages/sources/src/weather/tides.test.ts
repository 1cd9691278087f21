import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { weather } from './index.js'
import { fakeTideZones, startFakeKartverketTide } from './testing/fake-kartverket-tide.js'

let tide: FakeUpstream
let gateway: TestGateway

beforeAll(async () => {
  tide = await startFakeKartverketTide()
  gateway = createTestGateway({ sources: weather(), upstreams: { kartverket_tide: tide } })
})
afterAll(() => tide.close())

const HOUR = 3_600_000
type ForecastRow = {
  time: string
  tide_cm: number | null
  sea_level_cm: number | null
  surge_cm: number | null
  sea_level_basis: string | null
  datum: string
}
type TableRow = { time: string; height_cm: number; kind: string; datum: string }

describe('get_tide_forecast', () => {
  it('answers hour by hour from the current hour: tide, surge and their sum, measured for the hour begun, in chart datum by default', async () => {
    const { status, json } = await gateway.call('weather', 'get_tide_forecast', { lat: 59.9081, lon: 10.7349 })
    expect(status).toBe(200)
    const rows = json.data as ForecastRow[]
    expect(rows).toHaveLength(48)
    const hour = Math.floor(Date.now() / HOUR) * HOUR
    expect(rows[0]!.time).toBe(new Date(hour).toISOString().replace('.000Z', 'Z'))
    expect(rows.every((row) => row.datum === 'CD')).toBe(true)
    // The current hour has begun: its level is the measured one; the next is forecast, tide plus surge.
    expect(rows[0]!.sea_level_basis).toBe('observation')
    const next = rows[1]!
    expect(next.sea_level_basis).toBe('forecast')
    expect(next.sea_level_cm).toBeCloseTo(next.tide_cm! + next.surge_cm!, 0)
    // Oslo's chart datum lies 38 cm below mean sea level in the fake, and the tide swings ±14.5 cm.
    expect(Math.min(...rows.map((r) => r.tide_cm!))).toBeGreaterThan(38 - 14.6)
    // Beyond the fake's 60 hours of surge forecast there is no surge: ask 72 hours.
    const long = (await gateway.call('weather', 'get_tide_forecast', { lat: 59.908, lon: 10.735, hours: 72 })).json
      .data as ForecastRow[]
    expect(long.at(-1)).toMatchObject({
      surge_cm: null,
      sea_level_cm: null,
      sea_level_basis: null,
      tide_cm: expect.any(Number),
    })
    expect(json._raw_values).toMatchObject({
      reference_level: 'CD',
      location_name: 'Oslo',
      location_code: 'OSL',
      reference_gauge: 'OSL',
    })
    expect(json._provenance.data.source).toContain('© Kartverket')
    expect(json._provenance.upstreams[0]).toMatchObject({ id: 'kartverket_tide', license: 'CC BY 4.0' })
  })

  it('asks Kartverket in UTC for the point, and gives the datum asked for', async () => {
    const { json } = await gateway.call('weather', 'get_tide_forecast', {
      lat: 60.398,
      lon: 5.32,
      hours: 6,
      datum: 'msl',
    })
    const asked = tide.received.at(-1)!.query
    expect(
      Object.fromEntries(
        ['tide_request', 'lat', 'lon', 'datatype', 'refcode', 'tzone', 'interval'].map((k) => [k, asked.get(k)]),
      ),
    ).toEqual({
      tide_request: 'locationdata',
      lat: '60.398',
      lon: '5.32',
      datatype: 'all',
      refcode: 'msl',
      tzone: '0',
      interval: '60',
    })
    expect(asked.get('fromtime')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:00$/)
    expect((json.data as ForecastRow[]).map((r) => r.datum)).toEqual(Array(6).fill('MSL'))
    // Mean sea level: the tide swings around zero.
    expect(Math.max(...(json.data as ForecastRow[]).map((r) => Math.abs(r.tide_cm!)))).toBeLessThanOrEqual(54)
  })
  it('keeps values Kartverket writes off the hour (a zone delayed from its gauge)', async () => {
    const fresh = createTestGateway({ sources: weather(), upstreams: { kartverket_tide: tide } })
    const hour = Math.floor(Date.now() / HOUR) * HOUR
    const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`
    tide.failWith(
      fakeReply.xml(
        `<tide><locationdata><location name="Oslo" code="OSL" delay="17" factor="0.94"/><reflevelcode>CD</reflevelcode>` +
          `<data type="prediction" unit="cm"><waterlevel value="40.0" time="${at(hour + 17 * 60_000)}" flag="pre"/><waterlevel value="44.5" time="${at(hour + 77 * 60_000)}" flag="pre"/></data></locationdata></tide>`,
      ),
      { times: 1 },
    )
    const { json } = await fresh.call('weather', 'get_tide_forecast', { lat: 59.9, lon: 10.7, hours: 3 })
    expect((json.data as ForecastRow[]).map((r) => [r.tide_cm, r.surge_cm, r.sea_level_basis])).toEqual([
      [40, null, null],
      [44.5, null, null],
    ])
    expect(json._raw_values).toMatchObject({ delay_minutes: 17, amplitude_factor: 0.94 })
  })
})

describe('get_tide_table', () => {
  it('answers high and low water alternately, about 6 h 12 min apart, from 00:00 UTC today', async () => {
    const { status, json } = await gateway.call('weather', 'get_tide_table', { lat: 69.647, lon: 18.955 })
    expect(status).toBe(200)
    const rows = json.data as TableRow[]
    expect(rows.length).toBeGreaterThanOrEqual(11)
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000
    expect(Date.parse(rows[0]!.time)).toBeGreaterThanOrEqual(today)
    expect(Date.parse(rows.at(-1)!.time)).toBeLessThanOrEqual(today + 3 * 86_400_000)
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.kind).not.toBe(rows[i - 1]!.kind)
      expect((Date.parse(rows[i]!.time) - Date.parse(rows[i - 1]!.time)) / 60_000).toBeCloseTo(372.6, -1)
    }
    const tromso = fakeTideZones.find((z) => z.code === 'TOS')!
    const high = rows.find((r) => r.kind === 'high')!
    expect(high).toMatchObject({
      datum: 'CD',
      height_cm: expect.closeTo(tromso.chartDatumBelowMsl + tromso.amplitude, 0),
    })
    expect(tide.received.at(-1)!.query.get('datatype')).toBe('tab')
  })

  it('reads times in whatever offset Kartverket writes them, and answers them in UTC, in time order', async () => {
    const fresh = createTestGateway({ sources: weather(), upstreams: { kartverket_tide: tide } })
    tide.failWith(
      fakeReply.xml(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tide>\n<locationdata>\n<location name="Bergen" code="BGO" latitude="60.390000" longitude="5.330000" delay="0" factor="1.00" obsname="Bergen" obscode="BGO"/>\n' +
          '<reflevelcode>CD</reflevelcode>\n<data type="prediction" unit="cm">\n' +
          '<waterlevel value="120.5" time="2026-11-25T07:40:00+01:00" flag="high"/>\n<waterlevel value="-3.25" time="2026-11-25T01:28:00+01:00" flag="low"/>\n</data>\n</locationdata>\n</tide>\n',
      ),
      { times: 1 },
    )
    const { status, json } = await fresh.call('weather', 'get_tide_table', { lat: 60.39, lon: 5.33 })
    expect(status).toBe(200)
    expect(json.data).toEqual([
      { time: '2026-11-25T00:28:00Z', height_cm: -3.25, kind: 'low', datum: 'CD' },
      { time: '2026-11-25T06:40:00Z', height_cm: 120.5, kind: 'high', datum: 'CD' },
    ])
  })
})

describe('the tide operations and their failures', () => {
  it('answer an empty list with Kartverket’s reason for a point it has no sea level for, inland or far out at sea', async () => {
    for (const op of ['get_tide_forecast', 'get_tide_table']) {
      const { status, json } = await gateway.call('weather', op, { lat: 61.5, lon: 9.0 })
      expect([status, json.data]).toEqual([200, []])
      expect(json._raw_values).toEqual({
        no_data: 'Kartverket: Sorry. We do not have sea level data for this area.',
        reference_level: null,
      })
    }
    expect(gateway.errors).toEqual([])
  })

  it('refuse bad input with a 400 naming the parameter, without asking Kartverket', async () => {
    const before = tide.requests.length
    const cases = [
      [{ lat: 95, lon: 10 }, 'lat'],
      [{ lat: 59.9, lon: 10.7, datum: 'lat' }, 'datum'],
      [{ lat: 59.9, lon: 10.7, hours: 0 }, 'hours'],
    ] as const
    for (const [query, parameter] of cases) {
      const { status, json } = await gateway.call('weather', 'get_tide_forecast', query)
      expect([status, json.error.details[0].parameter]).toEqual([400, parameter])
    }
    const days = await gateway.call('weather', 'get_tide_table', { lat: 59.9, lon: 10.7, days: 15 })
    expect([days.status, days.json.error.details[0]]).toEqual([
      400,
      expect.objectContaining({ parameter: 'days', problem: 'must be at most 14' }),
    ])
    expect(tide.requests.length).toBe(before)
  })

  it('are a 502 naming Kartverket when it fails, errs inside HTTP 200, or sends a level that is not a number', async () => {
    const fresh = createTestGateway({ sources: weather(), upstreams: { kartverket_tide: tide } })
    const call = () => fresh.call('weather', 'get_tide_table', { lat: 60.39, lon: 5.33 })
    try {
      tide.failWith(fakeReply.status(503, 'Service Unavailable'), { times: 1 })
      const down = await call()
      expect([down.status, down.json.error.upstream, down.json.error.message]).toEqual([
        502,
        'kartverket_tide',
        expect.stringContaining('Kartverket water-level API'),
      ])
      tide.failWith(fakeReply.xml('<?xml version="1.0"?>\n<tide>\n<error>Internal database error</error>\n</tide>\n'), {
        times: 1,
      })
      const erred = await call()
      expect([erred.status, erred.json.error.code, erred.json.error.message]).toEqual([
        502,
        'upstream_invalid_response',
        expect.stringContaining('Internal database error'),
      ])
      tide.failWith(
        fakeReply.xml(
          '<tide><locationdata><reflevelcode>CD</reflevelcode><data type="prediction" unit="cm"><waterlevel value="n/a" time="2026-11-25T00:00:00+00:00" flag="high"/></data></locationdata></tide>',
        ),
        { times: 1 },
      )
      const unreadable = await call()
      expect([unreadable.status, unreadable.json.error.message]).toEqual([
        502,
        expect.stringContaining('unreadable prediction value'),
      ])
      tide.failWith(
        fakeReply.xml(
          '<tide><locationdata><reflevelcode>CD</reflevelcode><data type="prediction" unit="m"></data></locationdata></tide>',
        ),
        { times: 1 },
      )
      expect((await call()).json.error.message).toMatch(/levels in "m" where cm were expected/)
      tide.failWith(fakeReply.xml('<tide><locationdata><error>Position outside area</error></locationdata></tide>'), {
        times: 1,
      })
      const outside = await call()
      expect([outside.status, outside.json.data, outside.json._raw_values.no_data]).toEqual([
        200,
        [],
        'Kartverket: Position outside area',
      ])
    } finally {
      tide.failWith(undefined)
    }
    expect(fresh.errors).toEqual([])
  })
})

describe('the tides field of /api/v1/steder/{lat}/{lon}', () => {
  it('gives the tide table of a point on the coast in the maritime section, and none, without failing, for a point inland', async () => {
    const coast = await gateway.get('/api/v1/steder/59.908/10.735', { section: 'maritime' })
    expect(coast.status).toBe(200)
    const field = coast.json.fields.tides
    expect([field.status, field.section, field.source, field.operation]).toEqual([
      'ok',
      'maritime',
      'weather',
      'get_tide_table',
    ])
    expect(field.data[0]).toMatchObject({ kind: expect.stringMatching(/^(high|low)$/), datum: 'CD' })
    expect(field.attribution).toEqual([expect.objectContaining({ upstream: 'kartverket_tide', license: 'CC BY 4.0' })])
    const inland = await gateway.get('/api/v1/steder/61.5/9.0', { fields: 'tides' })
    expect([inland.status, inland.json.fields.tides.status, inland.json.fields.tides.data]).toEqual([200, 'ok', []])
  })
})

describe('the upstream override and identification', () => {
  it('reaches Kartverket where ALLMENNING_UPSTREAM_KARTVERKET_TIDE points, with the gateway’s User-Agent', async () => {
    const { builtInSources } = await import('../built-in-sources.js')
    const source = builtInSources({ ALLMENNING_UPSTREAM_KARTVERKET_TIDE: tide.baseUrl }).find(
      (s) => s.id === 'weather',
    )!
    const before = tide.requests.length
    const identified = createTestGateway({
      sources: source,
      upstream: { userAgent: 'example.no-havn/1.0 ops@example.no' },
    })
    const { status } = await identified.call('weather', 'get_tide_table', { lat: 59.91, lon: 10.74, days: 2 })
    expect([status, tide.requests.length]).toEqual([200, before + 1])
    expect(tide.received.at(-1)!.headers['user-agent']).toBe('example.no-havn/1.0 ops@example.no')
  })
})
