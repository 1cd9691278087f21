import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { nve } from '../index.js'
import { osloDate } from '../../shared/oslo-time.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  gateway = createTestGateway({ sources: nve({ hydapiKey: 'demo' }), upstreams: demo.fakes })
})
afterAll(() => demo.close())

describe('the offline demo of nve', () => {
  it('plays every upstream of the source', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      nve()
        .upstreams.map((u) => u.id)
        .sort(),
    )
  })

  it.each([
    ['a point in Oslo', { lat: 59.91, lon: 10.75 }, '0301'],
    ["Oslo's municipality", { municipality: '0301' }, '0301'],
    ["Oslo's county", { county: '03' }, null],
    ['the documented municipality (Bergen)', { municipality: '4601' }, '4601'],
    ['the documented point (Bergen)', { lat: 60.391, lon: 5.322 }, '4601'],
    ['a point in Hemnes', { lat: 65.9094, lon: 14.2701 }, '1832'],
    ['a county with nothing recorded (Rogaland)', { county: '11' }, null],
  ])('get_warnings answers today’s warnings for %s', async (_what, query, municipality) => {
    const { status, json } = await gateway.call('nve', 'get_warnings', query)
    expect(status).toBe(200)
    expect(json.data.date).toBe(osloDate())
    expect(json.data.warnings.length).toBeGreaterThan(0)
    expect(json.data.location.municipality).toBe(municipality)
    for (const w of json.data.warnings) expect(w.valid_from.startsWith(osloDate())).toBe(true)
  })

  it("answers a quiet day's green entry without a link, as Varsom's 'xxx' id is no forecast", async () => {
    const { json } = await gateway.call('nve', 'get_warnings', { county: '11', hazard: 'flood' })
    expect(json.data.warnings).toEqual([
      expect.objectContaining({
        hazard: 'flood',
        level: 1,
        level_name: 'green',
        id: null,
        url: null,
        counties: [{ number: '11', name: null }],
      }),
    ])
  })

  it.each([
    ['a point in Oslo, with the default radius', { lat: 59.91, lon: 10.75 }],
    ['the documented example', { lat: 59.91, lon: 10.75, radius_km: 20, has_recent_data: true, limit: 100 }],
    ['every station near Oslo', { lat: 59.91, lon: 10.75, has_recent_data: false }],
  ])(
    'find_hydro_stations answers %s with stations and their latest values from the current hour',
    async (_what, query) => {
      const { status, json } = await gateway.call('nve', 'find_hydro_stations', query)
      expect(status).toBe(200)
      expect(json.data.stations.length).toBeGreaterThan(0)
      const first = json.data.stations[0]
      expect(first).toMatchObject({
        station_id: '6.78.0',
        has_recent_data: true,
        latitude: expect.any(Number),
        longitude: expect.any(Number),
      })
      expect(Date.now() - Date.parse(first.latest_observation_at)).toBeLessThan(2 * 3_600_000)
      expect(first.water_level.value).toEqual(expect.any(Number))
    },
  )

  it("fills the places bundle's hazards section for Oslo", async () => {
    const { status, json } = await gateway.get('/api/v1/steder/59.91/10.75', { section: 'hazards' })
    expect(status).toBe(200)
    expect(json.fields.hazard_warnings).toMatchObject({ status: 'ok' })
    expect(json.fields.hydro_stations).toMatchObject({ status: 'ok' })
    expect(json.fields.hydro_stations.data.stations.length).toBeGreaterThan(0)
    expect(gateway.errors).toEqual([])
  })
})
