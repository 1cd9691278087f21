import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions } from '@allmenning/core'
import type { FakeUpstream } from '@allmenning/core/testing'
import { ais } from './ais/index.js'
import {
  FAKE_BARENTSWATCH_CLIENT,
  startFakeBarentswatch,
  type FakeBarentswatch,
} from './ais/testing/fake-barentswatch.js'
import { akvakultur } from './akvakultur/index.js'
import { startFakeFiskeridirGis, startFakePubAqua } from './akvakultur/testing/fake-fiskeridir.js'
import { builtInSources } from './built-in-sources.js'
import { firms } from './firms/index.js'
import { FAKE_FIRMS_KEY, startFakeFirms } from './firms/testing/fake-firms.js'
import { kystdatahuset } from './kystdatahuset/index.js'
import { startFakeKystdatahuset } from './kystdatahuset/testing/fake-kystdatahuset.js'
import { nobil } from './nobil/index.js'
import { FAKE_NOBIL_KEY, startFakeNobil } from './nobil/testing/fake-nobil.js'
import { poiNorge } from './poi_norge/index.js'
import { startFakeOverpass } from './poi_norge/testing/fake-overpass.js'

// The six place sources of this package behind /api/v1/steder/{lat}/{lon}, each against its
// local stand-in: every field they declare is filled through the ordinary pipeline.

let fakes: Record<'kystdatahuset' | 'gis' | 'aqua' | 'nobil' | 'firms' | 'overpass', FakeUpstream>
let bw: FakeBarentswatch

beforeAll(async () => {
  const [k, g, a, n, f, o] = await Promise.all([
    startFakeKystdatahuset(),
    startFakeFiskeridirGis(),
    startFakePubAqua(),
    startFakeNobil(),
    startFakeFirms(),
    startFakeOverpass(),
  ])
  fakes = { kystdatahuset: k, gis: g, aqua: a, nobil: n, firms: f, overpass: o }
  bw = await startFakeBarentswatch()
})
afterAll(() => Promise.all([...Object.values(fakes).map((f) => f.close()), bw.close()]))

const upstreams = (): GatewayOptions['upstreams'] => ({
  kystdatahuset: { baseUrl: fakes.kystdatahuset.baseUrl },
  fiskeridir_gis: { baseUrl: fakes.gis.baseUrl },
  fiskeridir_aqua: { baseUrl: fakes.aqua.baseUrl },
  nobil: { baseUrl: fakes.nobil.baseUrl },
  firms: { baseUrl: fakes.firms.baseUrl },
  overpass: { baseUrl: fakes.overpass.baseUrl },
  barentswatch_id: { baseUrl: bw.id.baseUrl },
  barentswatch_ais: { baseUrl: bw.ais.baseUrl },
})
const fields = 'vessels,ports,aquaculture,charging_stations,fire_detections,pois'
const bundle = async (keys: boolean) => {
  const sources = keys
    ? [
        kystdatahuset(),
        akvakultur(),
        nobil({ apiKey: FAKE_NOBIL_KEY }),
        firms({ mapKey: FAKE_FIRMS_KEY }),
        ais(FAKE_BARENTSWATCH_CLIENT),
        poiNorge(),
      ]
    : [kystdatahuset(), akvakultur(), nobil(), firms(), ais(), poiNorge()]
  const gateway = createGateway({ sources, upstreams: upstreams(), onError: () => {} })
  const res = await gateway.handle({
    method: 'GET',
    path: '/api/v1/steder/59.9065/10.7470',
    query: `fields=${fields}`,
    headers: {},
  })
  return { status: res.status, json: JSON.parse(res.body!) }
}

describe('the place fields of the maritime, energy, air and poi sources', () => {
  it('fills each field from its source, with attribution', async () => {
    const { status, json } = await bundle(true)
    expect(status).toBe(200)
    const of = (field: string) => json.fields[field]
    expect(
      Object.fromEntries(fields.split(',').map((f) => [f, [of(f).status, of(f).source, of(f).operation]])),
    ).toEqual({
      vessels: ['ok', 'ais', 'find_vessels_nearby'],
      ports: ['ok', 'kystdatahuset', 'find_ports_nearby'],
      aquaculture: ['ok', 'akvakultur', 'find_sites_nearby'],
      charging_stations: ['ok', 'nobil', 'find_charging_stations'],
      fire_detections: ['ok', 'firms', 'find_fire_detections'],
      pois: ['ok', 'poi_norge', 'search_poi'],
    })
    expect(of('vessels').data.fartoy[0].navn).toBe('COLOR MAGIC')
    expect(of('ports').data.havner[0].navn).toBe('Salt brygge FK')
    expect(of('pois').data.items[0].name).toBe('Olivia')
    expect(of('charging_stations').data[0].id).toBe('NOR_01003')
    expect(of('fire_detections').data.detections).toEqual([])
    expect(of('vessels').attribution).toEqual([
      {
        upstream: 'barentswatch_ais',
        publisher: 'Kystverket (Norwegian Coastal Administration), via BarentsWatch',
        license: 'NLOD 2.0',
      },
      { upstream: 'barentswatch_id', publisher: 'BarentsWatch' },
    ])
    expect(of('pois').attribution).toEqual([
      { upstream: 'overpass', publisher: 'OpenStreetMap contributors', license: 'ODbL 1.0' },
    ])
    expect(json.summary).toEqual({ ok: 6, stale: 0, failed: 0 })
  })

  it('says which variable to set for each field whose key is missing, and still answers the rest', async () => {
    const { status, json } = await bundle(false)
    expect(status).toBe(200)
    expect(json.fields.vessels).toMatchObject({
      status: 'not_configured',
      configure: 'ALLMENNING_BARENTSWATCH_CLIENT_ID',
    })
    expect(json.fields.charging_stations).toMatchObject({
      status: 'not_configured',
      configure: 'ALLMENNING_NOBIL_API_KEY',
    })
    expect(json.fields.fire_detections).toMatchObject({
      status: 'not_configured',
      configure: 'ALLMENNING_FIRMS_MAP_KEY',
    })
    expect([json.fields.ports.status, json.fields.aquaculture.status, json.fields.pois.status]).toEqual([
      'ok',
      'ok',
      'ok',
    ])
    expect(json.summary).toEqual({ ok: 3, stale: 0, failed: 3 })
  })
})

describe('the place fields of every built-in source', () => {
  // Given in reverse, so the order below comes from the spec's layout, not from the sources' order.
  const gateway = createGateway({ sources: builtInSources().reverse(), onError: () => {} })
  const problem = async (query: string) => {
    const res = await gateway.handle({ method: 'GET', path: '/api/v1/steder/59.9/10.7', query, headers: {} })
    expect(res.status).toBe(400)
    return JSON.parse(res.body!).error.details[0].problem as string
  }

  it('offer spec 4.2 sections and fields in its order, then the fields the other sources add', async () => {
    expect(await problem('section=everything')).toBe(
      'must be one of: summary, geography, weather, air, poi, energy, maritime, transport, business, culture, community, nature, hazards, all',
    )
    expect(await problem('fields=rainbows')).toBe(
      'must be a comma-separated list of: addresses, place_names, current_weather, forecast, air_stations, air_forecast, pois, vessels, aquaculture, ports, charging_stations, fire_detections, price_area, electricity_price, tides, stops, traffic_registration_points, traffic_messages, shared_mobility, train_stations, companies, census_properties, water_temperatures, weather_stations, schools, news, food_inspections, heritage_sites, protected_areas, sports_facilities, species_observations, hazard_warnings, hydro_stations',
    )
  })

  it('fill each section with the fields it had', async () => {
    const res = await gateway.handle({ method: 'GET', path: '/api/v1/openapi.json', query: '', headers: {} })
    const parameters = JSON.parse(res.body!).paths['/api/v1/steder/{lat}/{lon}'].get.parameters as {
      name: string
      description: string
    }[]
    expect(parameters.find((p) => p.name === 'section')!.description).toContain(
      'summary (addresses, place_names, current_weather); geography (addresses, place_names); weather (current_weather, forecast, water_temperatures, weather_stations); ' +
        'air (air_stations, air_forecast, fire_detections); poi (pois); energy (charging_stations, price_area, electricity_price); maritime (vessels, aquaculture, ports, tides); transport (stops, traffic_registration_points, traffic_messages, shared_mobility, train_stations); business (companies); culture (census_properties, heritage_sites, sports_facilities); community (schools, news, food_inspections); nature (protected_areas, species_observations); hazards (hazard_warnings, hydro_stations); all (every field)',
    )
  })
})
