import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { FakeUpstream } from '@allmenning/core/testing'
import { builtInSources } from '../built-in-sources.js'
import { startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { nve } from './index.js'
import { osloLocalToIso } from '../shared/oslo-time.js'
import { startFakeVarsomAvalanche, startFakeVarsomHydro } from './testing/fake-varsom.js'

let flood: FakeUpstream
let landslide: FakeUpstream
let avalanche: FakeUpstream
let kartverket: FakeUpstream
let gateway: Gateway

beforeAll(async () => {
  ;[flood, landslide, avalanche, kartverket] = await Promise.all([
    startFakeVarsomHydro('flood'),
    startFakeVarsomHydro('landslide'),
    startFakeVarsomAvalanche(),
    startFakeKartverketAdresser(),
  ])
  gateway = createGateway({
    sources: [nve()],
    upstreams: {
      nve_flood: { baseUrl: flood.baseUrl },
      nve_landslide: { baseUrl: landslide.baseUrl },
      nve_avalanche: { baseUrl: avalanche.baseUrl, timeoutMs: 500 },
      kartverket_adresser: { baseUrl: kartverket.baseUrl },
    },
    onError: () => {},
  })
})
afterAll(() => Promise.all([flood.close(), landslide.close(), avalanche.close(), kartverket.close()]))

const warnings = async (query: string, g: Gateway = gateway) => {
  const res = await g.handle({ method: 'GET', path: '/api/v1/kilder/nve/get_warnings', query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body!), body: res.body! }
}
const summary = (list: { hazard: string; level: number | null; id: string | null }[]) =>
  list.map((w) => [w.hazard, w.level, w.id])

describe('get_warnings by municipality and county', () => {
  it("answers a municipality's flood, landslide and avalanche warnings for the day, levels as numbers and times with their offset", async () => {
    const { status, json } = await warnings('municipality=4601&date=2026-01-14')
    expect(status).toBe(200)
    expect(json.data.date).toBe('2026-01-14')
    expect(json.data.location).toEqual({
      county: '46',
      municipality: '4601',
      municipality_name: null,
      avalanche_region: null,
      note: null,
    })
    expect(json.data.highest_level).toEqual({ flood: 1, landslide: 2, avalanche: null })
    expect(summary(json.data.warnings)).toEqual([
      ['flood', 1, '584410'],
      ['landslide', 2, '584420'],
    ])
    const slide = json.data.warnings[1]
    expect(slide).toMatchObject({
      level_name: 'yellow',
      danger_type: 'Landslide danger',
      valid_from: '2026-01-14T07:00:00+01:00',
      valid_to: '2026-01-15T06:59:00+01:00',
      counties: [{ number: '46', name: 'Vestland' }],
      // Varsom names Bergen by its own number here: that is no name.
      municipalities: [
        { number: '4601', name: null },
        { number: '4626', name: 'Øygarden' },
      ],
      url: 'https://www.varsom.no/en/flood-and-landslide-warning-service/forecastid/584420',
    })
    expect(flood.requests.at(-1)).toBe(
      '/hydrology/forecast/flood/v1.0.10/api/Warning/County/46/2/2026-01-14/2026-01-14',
    )
    expect(avalanche.requests.at(-1)).toBe(
      '/hydrology/forecast/avalanche/v6.3.0/api/Warning/All/2/2026-01-14/2026-01-14',
    )
    expect(json._provenance.upstreams.map((u: { id: string }) => u.id).sort()).toEqual([
      'nve_avalanche',
      'nve_flood',
      'nve_landslide',
    ])
    expect(json._provenance.upstreams.find((u: { id: string }) => u.id === 'nve_flood').publisher).toMatch(
      /Varsler fra Flomvarslingen i Norge og www\.varsom\.no/,
    )
  })

  it("answers a whole county, municipality numbers sent as numbers padded, an empty list as no warnings, avalanches by the county's regions", async () => {
    const { json } = await warnings('county=18&date=2026-01-14')
    expect(summary(json.data.warnings)).toEqual([
      ['flood', 3, '584502'],
      ['avalanche', 3, '451207'],
    ])
    expect(json.data.warnings[0].municipalities).toEqual([
      { number: '1832', name: 'Hemnes' },
      { number: '1833', name: 'Rana' },
    ])
    expect(json.data.warnings[1]).toMatchObject({
      level_name: 'considerable',
      region: { id: '3019', name: 'Saltfjellet', type: 'A' },
      url: null,
    })
    expect(json.data.highest_level).toEqual({ flood: 3, landslide: null, avalanche: 3 })
  })

  it('asks Varsom in Norwegian with lang=no, and one hazard only with hazard=', async () => {
    const before = { landslide: landslide.requests.length, avalanche: avalanche.requests.length }
    const { json } = await warnings('municipality=4640&hazard=flood&lang=no&date=2026-01-14')
    expect(flood.requests.at(-1)).toBe(
      '/hydrology/forecast/flood/v1.0.10/api/Warning/County/46/1/2026-01-14/2026-01-14',
    )
    expect(json.data.warnings.map((w: { main_text: string }) => w.main_text)).toEqual([
      'Flomfare i elvene i indre Sogn',
    ])
    expect(json.data.highest_level).toEqual({ flood: 2, landslide: null, avalanche: null })
    expect([landslide.requests.length, avalanche.requests.length]).toEqual([before.landslide, before.avalanche])
  })

  it('asks for today in Norway when no date is given', async () => {
    const { json } = await warnings('county=46&hazard=landslide')
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(new Date())
    expect(json.data.date).toBe(today)
    expect(landslide.requests.at(-1)).toBe(
      `/hydrology/forecast/landslide/v1.0.10/api/Warning/County/46/2/${today}/${today}`,
    )
    expect(json.data.warnings[0].valid_from).toBe(osloLocalToIso(`${today}T07:00:00`))
  })

  it('gives summer times the summer offset', async () => {
    const { json } = await warnings('municipality=4601&hazard=flood&date=2026-07-01')
    expect(json.data.warnings[0]).toMatchObject({
      valid_from: '2026-07-01T07:00:00+02:00',
      published_at: '2026-07-01T09:41:17+02:00',
    })
  })
})

describe('get_warnings for a point', () => {
  it('places the point in its municipality (Kartverket) and its avalanche region (Varsom), the level sent as a string', async () => {
    const { status, json } = await warnings('lat=65.9094&lon=14.2701&date=2026-01-14')
    expect(status).toBe(200)
    expect(json.data.location).toEqual({
      county: '18',
      municipality: '1832',
      municipality_name: 'HEMNES',
      avalanche_region: { id: '3019', name: 'Saltfjellet' },
      note: null,
    })
    expect(summary(json.data.warnings)).toEqual([
      ['flood', 3, '584502'],
      ['avalanche', 3, '451207'],
    ])
    expect(avalanche.requests.at(-1)).toBe(
      '/hydrology/forecast/avalanche/v6.3.0/api/AvalancheWarningByCoordinates/Simple/65.909/14.27/2/2026-01-14/2026-01-14',
    )
  })

  it("keeps Varsom's level-0 'not assessed' avalanche warning of a B region as level 0", async () => {
    const { json } = await warnings('lat=60.3976&lon=5.3232&hazard=avalanche&date=2026-01-14')
    expect(json.data.warnings).toEqual([
      expect.objectContaining({
        hazard: 'avalanche',
        level: 0,
        level_name: 'not assessed',
        region: { id: '3128', name: 'Hordaland sør', type: 'B' },
      }),
    ])
  })

  it('says so when a point lies in no municipality, and asks neither flood nor landslide service', async () => {
    const before = flood.requests.length + landslide.requests.length
    const { status, json } = await warnings('lat=57.5&lon=3.1&date=2026-01-14')
    expect(status).toBe(200)
    expect(json.data.location).toMatchObject({
      county: null,
      municipality: null,
      note: expect.stringMatching(/No address within 5 km/),
    })
    expect(json.data.warnings).toEqual([])
    expect(flood.requests.length + landslide.requests.length).toBe(before)
  })

  it("fills the places bundle's hazards section with today's warnings for the point", async () => {
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/steder/65.9094/14.2701',
      query: 'section=hazards',
      headers: {},
    })
    expect(res.status).toBe(200)
    const field = JSON.parse(res.body!).fields.hazard_warnings
    expect(field).toMatchObject({ status: 'ok', source: 'nve', operation: 'get_warnings' })
    expect(field.data.location.municipality).toBe('1832')
    expect(field.data.warnings.map((w: { hazard: string }) => w.hazard)).toEqual(['flood', 'avalanche'])
  })
})

describe('get_warnings refuses bad input with a 400 naming the parameter, before asking anyone', () => {
  it.each([
    ['', 'municipality', 'or county, or lat and lon, is required'],
    ['county=46&municipality=4601', 'municipality', 'cannot be combined with county or lat/lon: give one of them'],
    ['lat=60.39', 'lon', 'is required with lat'],
    ['municipality=461', 'municipality', 'must be four digits, e.g. 4601'],
    ['county=4', 'county', 'must be two digits, e.g. 46'],
    ['county=46&date=2026-02-30', 'date', 'must be a real calendar date'],
    ['county=46&date=14.01.2026', 'date', 'must be a date, YYYY-MM-DD'],
    ['county=46&hazard=fire', 'hazard', undefined],
    ['county=46&lang=de', 'lang', undefined],
  ])('%s', async (query, parameter, problem) => {
    const before =
      flood.requests.length + landslide.requests.length + avalanche.requests.length + kartverket.requests.length
    const { status, json } = await warnings(query)
    expect(status).toBe(400)
    expect(json.error.details[0].parameter).toBe(parameter)
    if (problem) expect(json.error.details[0].problem).toBe(problem)
    expect(
      flood.requests.length + landslide.requests.length + avalanche.requests.length + kartverket.requests.length,
    ).toBe(before)
  })
})

describe('get_warnings when Varsom fails', () => {
  it('is a 502 naming the Varsom API that failed, without a stack trace', async () => {
    flood.failWith(
      { status: 503, headers: { 'content-type': 'text/html' }, body: '<html><body>Service Unavailable</body></html>' },
      { times: 1 },
    )
    const { status, json, body } = await warnings('county=46&date=2026-01-03')
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ status: 502, upstream: 'nve_flood' })
    expect(json.error.message).toMatch(/^Upstream NVE flood warnings \(Varsom\) \(nve_flood\) /)
    expect(body).not.toMatch(/\.ts:\d+/)
  })

  it('is a 502 naming the avalanche API when it sends something that is not a list of warnings', async () => {
    avalanche.failWith(
      {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"Message":"An error has occurred."}',
      },
      { times: 1 },
    )
    const { status, json } = await warnings('county=46&hazard=avalanche&date=2026-01-04')
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_invalid_response', upstream: 'nve_avalanche' })
  })
})

describe('builtInSources', () => {
  it('points nve at ALLMENNING_UPSTREAM_NVE_FLOOD, _LANDSLIDE and _AVALANCHE', async () => {
    const env = {
      ALLMENNING_UPSTREAM_NVE_FLOOD: flood.baseUrl,
      ALLMENNING_UPSTREAM_NVE_LANDSLIDE: landslide.baseUrl,
      ALLMENNING_UPSTREAM_NVE_AVALANCHE: avalanche.baseUrl,
    }
    const g = createGateway({ sources: builtInSources(env).filter((s) => s.id === 'nve'), onError: () => {} })
    const before = flood.requests.length
    const { status, json } = await warnings('municipality=4601&date=2026-01-05', g)
    expect(status).toBe(200)
    expect(json.data.highest_level).toEqual({ flood: 1, landslide: 2, avalanche: null })
    expect(flood.requests.length).toBe(before + 1)
  })
})
