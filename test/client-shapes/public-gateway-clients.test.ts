import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type FakeUpstream, type TestGateway, type TestQuery } from '@allmenning/core/testing'
import { ais } from '@allmenning/sources/ais'
import { FAKE_BARENTSWATCH_CLIENT, startFakeBarentswatch, type FakeBarentswatch } from '@allmenning/sources/ais/testing'
import { avinor } from '@allmenning/sources/avinor'
import { startFakeAvinor, type FakeAvinor } from '@allmenning/sources/avinor/testing'
import { geonorge } from '@allmenning/sources/geonorge'
import { startFakeKartverketAdresser, startFakeKartverketStedsnavn } from '@allmenning/sources/geonorge/testing'
import { kystdatahuset } from '@allmenning/sources/kystdatahuset'
import { startFakeKystdatahuset } from '@allmenning/sources/kystdatahuset/testing'
import { luftkvalitet } from '@allmenning/sources/luftkvalitet'
import { startFakeMetAirquality } from '@allmenning/sources/luftkvalitet/testing'
import { nobil } from '@allmenning/sources/nobil'
import { FAKE_NOBIL_KEY, nobilReply, nobilSearchFixture, startFakeNobil } from '@allmenning/sources/nobil/testing'
import { poiNorge } from '@allmenning/sources/poi_norge'
import { overpassAnswer, serveOverpass, startFakeOverpass } from '@allmenning/sources/poi_norge/testing'
import { strompris } from '@allmenning/sources/strompris'
import { startFakeHvakosterstrommen } from '@allmenning/sources/strompris/testing'
import { weather } from '@allmenning/sources/weather'
import { startFakeKartverketTide, startFakeMetLocationforecast } from '@allmenning/sources/weather/testing'

// Each call below is one a client of the public gateway sends (live-gateway-2.md §3b, the
// parameters and values it sends), and each assertion is what that client reads: the list key
// in data (or a bare list), the row fields, coordinates as numbers, and the paging and cap
// fields it pages by. test/e2e/public-gateway-place-clients.test.ts and
// public-gateway-clients.test.ts read ships, quays, chargers, POIs and flights through the
// example server; here every operation is asked through a test gateway over its source's fakes.

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>

const oslo = { lat: 59.9139, lon: 10.7522 }

/** A coordinate a map client can place without parsing: a finite number. */
function expectNumbers(row: Row, ...fields: string[]) {
  for (const field of fields) {
    expect(typeof row[field], `${field} of ${JSON.stringify(row).slice(0, 120)}`).toBe('number')
    expect(Number.isFinite(row[field])).toBe(true)
  }
}

/**
 * The paging clients read: `_meta.pagination` with `next_offset` (the next page's offset, or
 * null on the last), and `data.has_more_results` beside a named list, saying the same.
 */
function expectPaging(json: any, list?: string) {
  const pagination = json._meta.pagination
  expect(pagination).toBeDefined()
  const rows = list === undefined ? json.data : json.data[list]
  expect(Array.isArray(rows)).toBe(true)
  expect(pagination.returned).toBe(rows.length)
  expect(pagination.next_offset).toBe(pagination.has_more_results ? pagination.offset + pagination.returned : null)
  if (list !== undefined) expect(json.data.has_more_results).toBe(pagination.has_more_results)
  return rows as Row[]
}

/** One 200 answer, with nothing the gateway heard going wrong inside. */
async function ok(gateway: TestGateway, source: string, operation: string, query: TestQuery) {
  const res = await gateway.call(source, operation, query)
  expect(res.status, JSON.stringify(res.json?.error)).toBe(200)
  expect(gateway.errors).toEqual([])
  return res.json
}

describe('luftkvalitet, as an air-quality layer reads it', () => {
  let met: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    met = await startFakeMetAirquality()
    gateway = createTestGateway({ sources: luftkvalitet(), upstreams: { met_airquality: met } })
  })
  afterAll(() => met.close())

  it('get_air_quality_nearby?lat&lon&limit=50: a bare list nearest first, with NILU’s field names', async () => {
    const json = await ok(gateway, 'luftkvalitet', 'get_air_quality_nearby', { ...oslo, limit: 50 })
    const rows = expectPaging(json)
    expect(rows.length).toBeGreaterThan(1)
    for (const row of rows) {
      expect(typeof row.station).toBe('string')
      expect(row.eoi).toMatch(/^[A-Z]{2}\d{4}[A-Z]$/)
      expectNumbers(row, 'latitude', 'longitude')
      expect(row).toHaveProperty('aqi_level')
      expect(row).toHaveProperty('aqi_time')
    }
    const distances = rows.map((row) => row.distance_km as number)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
    expect(rows[0]).toMatchObject({ station: 'Bygdøy Alle', eoi: 'NO0089A', latitude: 59.918889, longitude: 10.711111 })
    expect(json._meta.capped).toBeUndefined()
  })

  it('get_air_quality_forecast?lat&lon: data.components with the AQI series, and now_level', async () => {
    const json = await ok(gateway, 'luftkvalitet', 'get_air_quality_forecast', oslo)
    const aqi = json.data.components.find((c: Row) => c.component === 'AQI')
    expect(aqi.values.length).toBeGreaterThan(0)
    for (const value of aqi.values) {
      expect(Date.parse(value.time)).not.toBeNaN()
      expect(typeof value.value).toBe('number')
    }
    // The first hour of MET's forecast is the current one, so the level now is that hour's.
    expect(json.data.now_level).toBe(json.data.times[0].level)
    expect(['low', 'moderate', 'high', 'very_high']).toContain(json.data.now_level)
    expectPaging(json, 'times')
  })
})

describe('weather, as a weather panel and a tide layer read it', () => {
  let met: FakeUpstream
  let tide: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    ;[met, tide] = await Promise.all([startFakeMetLocationforecast(), startFakeKartverketTide()])
    gateway = createTestGateway({ sources: weather(), upstreams: { met_locationforecast: met, kartverket_tide: tide } })
  })
  afterAll(() => Promise.all([met.close(), tide.close()]))

  it('get_current_weather?lat&lon: an object with temperature_c, symbol and a summary in words', async () => {
    const json = await ok(gateway, 'weather', 'get_current_weather', oslo)
    expect(Array.isArray(json.data)).toBe(false)
    expect(json.data).toMatchObject({ temperature_c: -4.2, symbol: 'cloudy', summary: 'Cloudy' })
    // The Bergen client shows the first text it finds of summary, description and condition.
    const text = json.data.summary ?? json.data.description ?? json.data.condition
    expect(text).toBe('Cloudy')
    expectNumbers(json.data, 'temperature_c', 'lat', 'lon')
  })

  it('get_forecast?lat&lon: a bare list of steps with time, temperature_c and symbol', async () => {
    const json = await ok(gateway, 'weather', 'get_forecast', oslo)
    const rows = expectPaging(json)
    expect(rows.length).toBeGreaterThan(24)
    for (const row of rows) {
      expect(Date.parse(row.time)).not.toBeNaN()
      expect(row).toHaveProperty('symbol')
      expect(row).toHaveProperty('summary')
    }
    expectNumbers(rows[0]!, 'temperature_c')
  })

  it('get_tide_forecast?lat&lon: a bare list of {time, sea_level_cm, tide_cm, surge_cm}', async () => {
    const json = await ok(gateway, 'weather', 'get_tide_forecast', { lat: 59.908, lon: 10.735 })
    const rows = expectPaging(json)
    expect(rows).toHaveLength(48)
    for (const row of rows) {
      expect(Date.parse(row.time)).not.toBeNaN()
      expectNumbers(row, 'sea_level_cm', 'tide_cm')
    }
    expectNumbers(rows[0]!, 'surge_cm')
  })

  it('get_tide_table?lat&lon: a bare list of {time, height_cm, kind: high|low}', async () => {
    const json = await ok(gateway, 'weather', 'get_tide_table', { lat: 59.908, lon: 10.735 })
    const rows = expectPaging(json)
    expect(rows.length).toBeGreaterThan(4)
    for (const row of rows) {
      expect(Date.parse(row.time)).not.toBeNaN()
      expectNumbers(row, 'height_cm')
      expect(['high', 'low']).toContain(row.kind)
    }
  })
})

describe('kystdatahuset, as a quay layer reads it', () => {
  let fake: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    fake = await startFakeKystdatahuset()
    gateway = createTestGateway({ sources: kystdatahuset(), upstreams: { kystdatahuset: fake } })
  })
  afterAll(() => fake.close())

  it('find_ports_nearby?lat&lon&radius_km=20&limit=100: data.havner, every quay found, none cut at 100', async () => {
    const json = await ok(gateway, 'kystdatahuset', 'find_ports_nearby', { ...oslo, radius_km: 20, limit: 100 })
    const rows = expectPaging(json, 'havner')
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(typeof row.port_id).toBe('number')
      expect(row).toHaveProperty('navn')
      expect(typeof row.type).toBe('string')
      expectNumbers(row, 'lat', 'lon')
    }
    expect(json.data.radius_km).toBe(20)
    // The register is searched here, whole: nothing is capped, and has_more_results tells the truth.
    expect(json._meta.capped).toBeUndefined()
    expect(json._meta.pagination).toMatchObject({ has_more_results: false, next_offset: null, total: rows.length })
  })

  it('pages on next_offset until it is null, losing and repeating nothing', async () => {
    const all = (
      await ok(gateway, 'kystdatahuset', 'find_ports_nearby', { ...oslo, radius_km: 20, limit: 100 })
    ).data.havner.map((r: Row) => r.port_id)
    const seen: number[] = []
    let offset: number | null = 0
    while (offset !== null) {
      const json = await ok(gateway, 'kystdatahuset', 'find_ports_nearby', { ...oslo, radius_km: 20, limit: 4, offset })
      seen.push(...expectPaging(json, 'havner').map((r) => r.port_id as number))
      offset = json._meta.pagination.next_offset
    }
    expect(seen).toEqual(all)
  })
})

describe('nobil, as a charger layer reads it', () => {
  let fake: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    fake = await startFakeNobil()
    gateway = createTestGateway({ sources: nobil({ apiKey: FAKE_NOBIL_KEY }), upstreams: { nobil: fake } })
  })
  afterAll(() => fake.close())

  it('find_charging_stations?lat&lon&radius_km=15&limit=100: a bare list with id, name, lat, lon, charging_points', async () => {
    const json = await ok(gateway, 'nobil', 'find_charging_stations', { ...oslo, radius_km: 15, limit: 100 })
    const rows = expectPaging(json)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(typeof row.id).toBe('string')
      expect(row).toHaveProperty('name')
      expect(row).toHaveProperty('charging_points')
      expectNumbers(row, 'lat', 'lon')
    }
    expect(json._meta.capped).toBeUndefined()
  })

  it('says in _meta.capped, with the limit sent, when NOBIL gave all 500 stations it answers', async () => {
    const recorded = JSON.parse(nobilSearchFixture.toString('utf8')) as { chargerstations: { csmd: Row }[] }
    const first = recorded.chargerstations[0]!
    const many = Array.from({ length: 500 }, (_, i) => ({
      ...first,
      csmd: {
        ...first.csmd,
        id: 7000 + i,
        International_id: `NOR_${7000 + i}`,
        Position: `(${(59.9139 + i * 0.0001).toFixed(4)},10.7522)`,
      },
    }))
    const full = await startFakeNobil()
    full.route('/search.php', () => nobilReply(JSON.stringify({ ...recorded, chargerstations: many })))
    try {
      const capped = createTestGateway({ sources: nobil({ apiKey: FAKE_NOBIL_KEY }), upstreams: { nobil: full } })
      const json = await ok(capped, 'nobil', 'find_charging_stations', { ...oslo, radius_km: 15, limit: 100 })
      expect(expectPaging(json)).toHaveLength(100)
      expect(json._meta.capped).toEqual({ cap: 500, requested_limit: 100, reason: expect.any(String) })
    } finally {
      await full.close()
    }
  })
})

describe('poi_norge, as a map layer reads it, one category per call', () => {
  let fake: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    fake = await startFakeOverpass()
    gateway = createTestGateway({ sources: poiNorge(), upstreams: { overpass: fake } })
  })
  afterAll(() => fake.close())
  afterEach(() => fake.route('/interpreter', serveOverpass))

  it.each(['restaurant', 'cafe', 'fast_food', 'bar', 'pub', 'bicycle_parking'])(
    'search_poi?lat&lon&radius_km=2&category=%s&limit=100: data.items with id, category, name, lat, lon',
    async (category) => {
      const json = await ok(gateway, 'poi_norge', 'search_poi', { ...oslo, radius_km: 2, category, limit: 100 })
      const rows = expectPaging(json, 'items')
      for (const row of rows) {
        expect(typeof row.id).toBe('number')
        expect(row.category).toBe(category)
        expect(row).toHaveProperty('name')
        expectNumbers(row, 'lat', 'lon')
      }
      expect(json.data.truncated).toBe(false)
      expect(json._meta.capped).toBeUndefined()
    },
  )

  it('finds the recorded restaurants and bicycle stands', async () => {
    const restaurants = await ok(gateway, 'poi_norge', 'search_poi', {
      ...oslo,
      radius_km: 2,
      category: 'restaurant',
      limit: 100,
    })
    expect(restaurants.data.items.map((row: Row) => row.name)).toEqual(['Fiskeriet', 'Olivia'])
    const stands = await ok(gateway, 'poi_norge', 'search_poi', {
      ...oslo,
      radius_km: 2,
      category: 'bicycle_parking',
      limit: 100,
    })
    expect(stands.data.items.length).toBeGreaterThan(0)
  })

  it('says truncated and _meta.capped, with the limit sent, when Overpass answered its 1000 elements', async () => {
    const pubs = Array.from({ length: 1000 }, (_, i) => ({
      type: 'node',
      id: 8000 + i,
      lat: 59.9139,
      lon: Math.round((10.7522 + i * 0.00002) * 1e7) / 1e7,
      tags: { amenity: 'pub', name: `Pub ${i}` },
    }))
    fake.route('/interpreter', () => overpassAnswer(pubs))
    const capped = createTestGateway({ sources: poiNorge(), upstreams: { overpass: fake } })
    const json = await ok(capped, 'poi_norge', 'search_poi', { ...oslo, radius_km: 2, category: 'pub', limit: 100 })
    expect(expectPaging(json, 'items')).toHaveLength(100)
    expect(json.data.truncated).toBe(true)
    expect(json._meta.capped).toEqual({ cap: 1000, requested_limit: 100, reason: expect.any(String) })
  })
})

describe('geonorge, as an address lookup and a district list read it', () => {
  let addresses: FakeUpstream
  let places: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    ;[addresses, places] = await Promise.all([startFakeKartverketAdresser(), startFakeKartverketStedsnavn()])
    gateway = createTestGateway({
      sources: geonorge(),
      upstreams: { kartverket_adresser: addresses, kartverket_stedsnavn: places },
    })
  })
  afterAll(() => Promise.all([addresses.close(), places.close()]))

  it('search_address?text&kommunenummer=0301&limit=1: data.addresses[0] with numeric lat and lon', async () => {
    const json = await ok(gateway, 'geonorge', 'search_address', {
      text: 'Karl Johans gate 22',
      kommunenummer: '0301',
      limit: 1,
    })
    const [address] = expectPaging(json, 'addresses')
    expectNumbers(address!, 'lat', 'lon')
    expect(address).toMatchObject({ address: 'Karl Johans gate 22', municipality_number: '0301' })
  })

  it('search_address pages with next_offset when there are more hits than the limit', async () => {
    const json = await ok(gateway, 'geonorge', 'search_address', {
      text: 'Robert Levins gate',
      kommunenummer: '0301',
      limit: 1,
    })
    expectPaging(json, 'addresses')
    expect(json._meta.pagination).toMatchObject({ has_more_results: true, next_offset: 1, total: 3 })
  })

  it('search_place_name?text=A*&kommunenummer=0301: data.places with place_id, status, lat, lon, names[]{name, status}', async () => {
    const json = await ok(gateway, 'geonorge', 'search_place_name', { text: 'A*', kommunenummer: '0301', limit: 100 })
    const rows = expectPaging(json, 'places')
    expect(rows.map((row) => row.names[0].name)).toEqual(['Akerselva'])
    for (const row of rows) {
      expect(typeof row.place_id).toBe('number')
      expect(typeof row.status).toBe('string')
      expectNumbers(row, 'lat', 'lon')
      for (const name of row.names)
        expect(name).toEqual(expect.objectContaining({ name: expect.any(String), status: expect.any(String) }))
    }
  })

  it('takes navneobjekttype=administrativBydel and passes the prefix and the kind on to Kartverket', async () => {
    const json = await ok(gateway, 'geonorge', 'search_place_name', {
      text: 'A*',
      kommunenummer: '0301',
      navneobjekttype: 'administrativBydel',
      limit: 100,
    })
    // The recorded places hold no district, so the list is empty; what matters is what was asked.
    expectPaging(json, 'places')
    expect(json.parameters).toMatchObject({ text: 'A*', kommunenummer: '0301', navneobjekttype: 'administrativBydel' })
    const asked = places.received.at(-1)!.query
    expect(Object.fromEntries([...asked].filter(([key]) => ['sok', 'knr', 'navneobjekttype'].includes(key)))).toEqual({
      sok: 'A*',
      knr: '0301',
      navneobjekttype: 'administrativBydel',
    })
  })
})

describe('avinor, as a flight board reads it', () => {
  let fake: FakeAvinor
  let gateway: TestGateway
  beforeAll(async () => {
    fake = await startFakeAvinor()
    gateway = createTestGateway({ sources: avinor(), upstreams: { avinor: fake } })
  })
  afterAll(() => fake.close())

  it('get_flights with max_results=1000&limit=100&offset=0: data.flights, nothing capped, next_offset null', async () => {
    const query = {
      airport_id: 'OSL',
      direction: 'departures',
      hours_back: 1,
      hours_ahead: 36,
      max_results: 1000,
      limit: 100,
      offset: 0,
    }
    const json = await ok(gateway, 'avinor', 'get_flights', query)
    const rows = expectPaging(json, 'flights')
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(typeof row.flight_id).toBe('string')
      expect(row.schedule_time).toMatch(/Z$/)
      expect(typeof row.airline).toBe('string')
      expect(typeof row.airport).toBe('string')
      expect(typeof row.delayed).toBe('boolean')
      if (row.status !== undefined) expect(row.status).toEqual(expect.objectContaining({ code: expect.any(String) }))
    }
    expect(json._meta.capped).toBeUndefined()
  })

  it('lookup_airport and lookup_airline by the code the clients send: a bare list of {code, name}', async () => {
    const airports = await ok(gateway, 'avinor', 'lookup_airport', { query: 'OSL' })
    expect(expectPaging(airports)[0]).toEqual({ code: 'OSL', name: 'Oslo' })
    const airlines = await ok(gateway, 'avinor', 'lookup_airline', { query: 'SK' })
    expect(expectPaging(airlines)[0]).toEqual({ code: 'SK', name: 'SAS' })
  })
})

describe('strompris, as a price chart reads it', () => {
  let fake: FakeUpstream
  let gateway: TestGateway
  beforeAll(async () => {
    fake = await startFakeHvakosterstrommen()
    gateway = createTestGateway({ sources: strompris(), upstreams: { hvakosterstrommen: fake } })
  })
  afterAll(() => fake.close())

  it('get_prices?date&area (limit and offset sent too): data {date, area, prices: [{time_start, time_end, NOK_per_kWh}]}', async () => {
    const json = await ok(gateway, 'strompris', 'get_prices', {
      date: '2025-11-12',
      area: 'NO5',
      limit: 100,
      offset: 0,
    })
    expect(json.data).toMatchObject({ date: '2025-11-12', area: 'NO5' })
    const rows = expectPaging(json, 'prices')
    expect(rows).toHaveLength(96)
    for (const row of rows) {
      expect(Date.parse(row.time_start)).toBeLessThan(Date.parse(row.time_end))
      expectNumbers(row, 'NOK_per_kWh')
    }
  })

  it('get_price_range?start_date&end_date&area: the same rows, paged on next_offset', async () => {
    const json = await ok(gateway, 'strompris', 'get_price_range', {
      start_date: '2025-11-11',
      end_date: '2025-11-12',
      area: 'NO5',
    })
    const rows = expectPaging(json, 'prices')
    expect(rows).toHaveLength(100)
    expect(json._meta.pagination).toMatchObject({ has_more_results: true, next_offset: 100, total: 192 })
    expectNumbers(rows[0]!, 'NOK_per_kWh')
    const last = await ok(gateway, 'strompris', 'get_price_range', {
      start_date: '2025-11-11',
      end_date: '2025-11-12',
      area: 'NO5',
      offset: 100,
    })
    expect(expectPaging(last, 'prices')).toHaveLength(92)
    expect(last._meta.pagination.next_offset).toBeNull()
  })
})

describe('ais, as a ship layer pages it', () => {
  let bw: FakeBarentswatch
  let gateway: TestGateway
  beforeAll(async () => {
    bw = await startFakeBarentswatch()
    gateway = createTestGateway({
      sources: ais(FAKE_BARENTSWATCH_CLIENT),
      upstreams: { barentswatch_id: bw.id, barentswatch_ais: bw.ais },
    })
  })
  afterAll(() => bw.close())

  it('find_vessels_nearby?lat&lon&radius_km=20&limit&offset: data.fartoy, paged on next_offset', async () => {
    const bergen = { lat: 60.39, lon: 5.32, radius_km: 20 }
    const first = await ok(gateway, 'ais', 'find_vessels_nearby', { ...bergen, limit: 1, offset: 0 })
    const [vessel] = expectPaging(first, 'fartoy')
    expect(first._meta.pagination).toMatchObject({ has_more_results: true, next_offset: 1 })
    expect(typeof vessel!.vessel_id).toBe('number')
    expectNumbers(vessel!, 'lat', 'lon', 'avstand_km')
    const next = await ok(gateway, 'ais', 'find_vessels_nearby', {
      ...bergen,
      limit: 1,
      offset: first._meta.pagination.next_offset,
    })
    expect(expectPaging(next, 'fartoy')[0]!.vessel_id).not.toBe(vessel!.vessel_id)
    expect(next.data.has_more_results).toBe(false)
    expect(next._meta.pagination.next_offset).toBeNull()
    expect(next._meta.capped).toBeUndefined()
  })
})
