// The example Express server in its offline demo (ALLMENNING_DEMO=1): every operation of every
// built-in source answers 200 for a point in Oslo, Oslo's municipality and county, today's
// dates and its documented examples, each answer says it is demo data, and the explorer and
// MCP work; with every upstream played on 127.0.0.1 and no key given.
import type { Server } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/express-server/src/app.js'
import { demoRequested } from '../../examples/express-server/src/demo/demo-requested.js'
import { startExampleDemo, type ExampleDemo } from '../../examples/express-server/src/demo/start-demo.js'
import { listenAsTheExamples } from '../support/example-server.js'

const today = new Date().toISOString().slice(0, 10)
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
const oslo = 'lat=59.91&lon=10.75'

/**
 * Every operation's calls: the Oslo point, municipality and county where it takes them, today
 * where it is about a day, and the examples its documentation shows. An operation missing here
 * fails the first test, so a new one cannot slip past the demo.
 */
const calls: Record<string, string[]> = {
  'firmafakta/organisasjonsnummer_for_selskap': ['company_name=Equinor', 'company_name=DNB'],
  'firmafakta/personinformasjon': ['person_name=Ola Nordmann'],
  'firmafakta/selskapsdetaljer': ['org_nr=923609016'],
  'firmafakta/roller_i_enhet': ['org_nr=976030788', 'org_nr=987654325'],
  'firmafakta/underenheter_for_selskap': ['org_nr=912346021'],
  'firmafakta/finn_selskaper': ['kommunenummer=0301', 'navn=Equinor'],
  'firmafakta/finn_selskaper_i_omrade': [`${oslo}&radius_km=5`, `${oslo}&radius_km=5&min_employees=10`],
  'firmafakta/get_company_last_financial_statement': ['org_nr=923609016'],
  'firmafakta/aksjeeiere_for_selskap': ['org_nr=923609016'],
  'firmafakta/selskapets_aksjeposter': ['org_nr=923609016'],
  'firmafakta/aksjeposter_for_person': ['name=Ola Nordmann&birth_year=1975'],
  'firmafakta/tildelinger_for_selskap': ['org_nr=976030788'],
  'firmafakta/eu_tildelinger_for_selskap': ['org_nr=974760843'],
  'firmafakta/forskningsradet_tildelinger_for_selskap': ['org_nr=912345645'],
  'firmafakta/skattefunnprosjekter_for_selskap': ['org_nr=976030788'],
  'lovdata/search_rules': ['query=straffeloven', 'query=TEK17&source=regulations'],
  'lovdata/get_rule': ['document_id=NL/lov/2005-05-20-28'],
  'lovdata/get_section': ['document_id=NL/lov/2005-05-20-28&section=5a'],
  'lovdata/search_case_law': ['query=erstatning'],
  'lovdata/list_case_law': [`year=${today.slice(0, 4)}`],
  'lovdata/get_case_law': ['ref=HR-2025-844-A'],
  'avinor/get_flights': ['airport_id=OSL', 'airport_id=OSL&direction=departures', 'airport_id=BGO'],
  'avinor/lookup_airport': ['query=Oslo', 'query=OSL'],
  'avinor/lookup_airline': ['query=SK', 'query=Norwegian'],
  'statnett/get_physical_flow': ['', 'area=NO1'],
  'statnett/get_production_consumption': [''],
  'statnett/get_power_situation': ['', 'area=NO1'],
  'statnett/get_price_area': [oslo],
  'weather/get_current_weather': [oslo, 'lat=59.9139&lon=10.7522'],
  'weather/get_forecast': [oslo],
  'weather/get_tide_forecast': [oslo],
  'weather/get_tide_table': [oslo],
  'luftkvalitet/get_air_quality_nearby': [oslo, 'lat=59.9139&lon=10.7522&limit=5'],
  'luftkvalitet/get_air_quality_forecast': [oslo],
  'luftkvalitet/get_station_forecast': ['station_id=NO0057A'],
  'geonorge/search_address': ['text=Karl Johans gate 22', 'text=Karl Johans gate&kommunenummer=0301'],
  'geonorge/search_place_name': ['text=Grünerløkka', 'text=A*&kommunenummer=0301&navneobjekttype=administrativBydel'],
  'geonorge/find_addresses_nearby': [oslo],
  'geonorge/find_place_names_nearby': [oslo, 'lat=59.9112&lon=10.7339'],
  'kystdatahuset/find_ports_nearby': [oslo, 'lat=59.90&lon=10.74&radius_km=5'],
  'akvakultur/find_sites_nearby': [`${oslo}&radius_km=15`, 'lat=60.1&lon=5.2&radius_km=15'],
  'nobil/find_charging_stations': [oslo, 'lat=59.91&lon=10.75&radius_km=2'],
  'firms/find_fire_detections': [`${oslo}&radius_km=50`, 'lat=58.9&lon=6.1&radius_km=50&days=3'],
  'ais/find_vessels_nearby': [oslo, 'lat=60.39&lon=5.32&radius_km=10'],
  'poi_norge/search_poi': [oslo, 'lat=59.911&lon=10.745&radius_km=2&category=bicycle_parking'],
  'poi_norge/list_categories': [''],
  'strompris/get_prices': ['area=NO1', `area=NO1&date=${today}`],
  'strompris/get_price_range': [`area=NO1&start_date=${today}&end_date=${today}`],
  'strompris/get_prices_at_point': [oslo],
  'entur/search_stops': ['query=Oslo S'],
  'entur/get_departures': ['stop_place_id=NSR:StopPlace:337'],
  'entur/find_stops_nearby': [oslo],
  'entur/find_live_vehicles_nearby': [oslo, `${oslo}&mode=BUS`],
  'entur/find_shared_mobility_nearby': [oslo, `${oslo}&radius_m=500&form_factor=SCOOTER_STANDING`],
  'vegvesen/find_registration_points_nearby': [oslo],
  'vegvesen/find_registration_points_by_road': ['road=E18', 'road=E18&county_number=3'],
  'vegvesen/search_registration_points': ['query=Oslo'],
  'vegvesen/get_traffic_volume': [
    'registration_point_id=44656V72812',
    `registration_point_id=44656V72812&resolution=day&from=${yesterday}&to=${today}`,
  ],
  'vegvesen/find_traffic_points': ['county_number=3', 'county_number=03', `${oslo}&radius_km=10&operational_only=true`],
  'vegvesen/get_traffic_messages': [oslo, `${oslo}&radius_km=20&limit=100`],
  'ssb/search_tables': ['query=befolkning', 'query=Oslo'],
  'ssb/get_table_metadata': ['table_id=07459'],
  'ssb/get_table_data': ['table_id=07459&selection=Region:0301;ContentsCode:*;Tid:top(1)'],
  'nve/get_warnings': ['municipality=0301', 'county=03', oslo, `county=03&date=${today}`, 'municipality=4601'],
  'nve/find_hydro_stations': [oslo, `${oslo}&radius_km=20&has_recent_data=true`],
  'artskart/find_observations': [
    'municipality=0301',
    'municipality=301',
    'municipality=Oslo',
    `municipality=0301&from_date=${today}`,
  ],
  'artskart/find_observations_nearby': [oslo, `${oslo}&radius_km=2&from_date=${yesterday}`],
  'anleggsregisteret/find_facilities': [
    'municipality=0301',
    'municipality=Oslo',
    'municipality=301&status=existing',
    'municipality=Bergen&limit=500',
  ],
  'anleggsregisteret/find_facilities_nearby': [oslo, `${oslo}&radius_km=2&status=existing`],
  'anleggsregisteret/search_facilities': ['query=stadion', 'query=Jordal'],
  'anleggsregisteret/get_facility': ['id=1001'],
  'banenor/get_station_board': [
    'station_id=OSL&minutes_ahead=60&max_trains=20&limit=20',
    'station_id=NTH',
    'station_id=SKØ',
    'station_id=BR',
    'station_id=ALB&direction=both',
    'station_id=Oslo S&direction=arrivals',
  ],
  'banenor/list_stations': ['query=Skøyen', 'query=OSL', ''],
  'banenor/find_stations_nearby': [oslo, `${oslo}&radius_km=5`],
  'naturbase/find_protected_areas': [
    oslo,
    'lat=59.8859&lon=10.8247&radius_km=3&verneform=naturreservat',
    `${oslo}&include_geometry=false`,
  ],
  'naturbase/get_protected_area': ['id=VV00000972', 'id=VV00002750'],
  'naturbase/search_protected_areas': ['query=Østensjøvannet'],
  'kulturarv/search_heritage_sites': [
    'kommune=Oslo&art=Museum-galleri&limit=100',
    'kommune=0301',
    'kommune=301',
    oslo,
    `${oslo}&radius_km=2`,
    'query=kirke&kind=E-KRK',
  ],
  'kulturarv/search_museum_objects': ['query=*&owner=NF', 'query=Norsk Folkemuseum&limit=1', 'query=*&owner=NF,NMK-B'],
  'kulturarv/list_museums': ['', 'query=nasjonalmuseet'],
  'mattilsynet/search_establishments': [
    'poststed=Oslo&min_karakter=0&limit=100',
    'kommune=0301',
    'kommune=301',
    'kommune=Oslo',
    'query=pizza',
    'postnr=0153&since=2024-01-01',
  ],
  'mattilsynet/find_establishments_nearby': [oslo, `${oslo}&radius_km=3&max_karakter=1`],
  'nyheter/search_news': [
    oslo,
    `${oslo}&radius_km=20&limit=100&since=${new Date(Date.now() - 6 * 3_600_000).toISOString().slice(0, 19)}Z`,
    `${oslo}&municipality=0301`,
    `${oslo}&municipality=301`,
    `${oslo}&municipality=Oslo&category=Trafikk`,
    `${oslo}&since=${today}&source=nrk`,
  ],
  'utdanning/search_schools': [
    'kommunenr=0301',
    'kommunenr=301',
    'kommunenr=Oslo',
    'fylkenr=03',
    'fylkenr=3',
    'kommunenr=0301&limit=100&offset=0',
  ],
  'utdanning/search_kindergartens': [
    'kommunenr=0301',
    'kommunenr=301',
    'kommunenr=Oslo',
    'fylkenr=03',
    'kommunenr=0301&privat=true',
  ],
  'utdanning/get_unit': ['organization_id=971200006', 'organization_id=988300012', 'organization_id=974590328'],
  'utdanning/find_schools_nearby': [oslo, `${oslo}&radius_km=5`],
  'frost/find_stations': [
    'municipality=Oslo&limit=100',
    'municipality=0301',
    'municipality=301',
    'county=03',
    'county=3',
    `${oslo}&radius_km=10`,
    'name=Blindern',
  ],
  'frost/get_latest_observations': ['station_id=SN18700', 'station_id=SN18700&elements=air_temperature,wind_speed'],
  'frost/find_stations_nearby': [oslo, `${oslo}&radius_km=10`],
  'badetemp/get_nearest_water_temperatures': [oslo, `${oslo}&limit=50`],
  'badetemp/get_water_temperatures': ['location_id=0-10027', 'location_id=10-1088746'],
  'arkivverket/search_census_properties': [
    oslo,
    'query=Kristiania&limit=50',
    'query=Oslo',
    'query=Berg*',
    `${oslo}&radius_m=1500&include_residents=false`,
  ],
  'arkivverket/get_census_property': ['property_id=bf01036372000241', 'property_id=gf01036392000103'],
}

let demo: ExampleDemo
let server: Server
let base: string
beforeAll(async () => {
  expect(demoRequested({ ALLMENNING_DEMO: '1' })).toBe(true)
  demo = await startExampleDemo({ ALLMENNING_DEMO: '1', REDIS_URL: 'redis://127.0.0.1:1' }, () => {})
  ;({ server, base } = await listenAsTheExamples(createApp(demo.env, { ...demo.options, onError: () => {} })))
}, 120_000)
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await demo.close()
})

const getJson = async (path: string) => {
  const res = await fetch(`${base}${path}`)
  return { status: res.status, json: (await res.json()) as any }
}

/** Whether `data` holds something: a non-empty list, or an object with a non-empty list or a value. */
function holdsSomething(data: unknown): boolean {
  if (Array.isArray(data)) return data.length > 0
  if (data === null || typeof data !== 'object') return data !== null && data !== undefined
  const values = Object.values(data as Record<string, unknown>)
  const lists = values.filter(Array.isArray)
  return lists.length > 0 ? lists.some((list) => list.length > 0) : values.some((value) => value !== null)
}

describe('the offline demo', () => {
  it('has calls for every operation every source lists, and no call of an operation that is not there', async () => {
    const { json } = await getJson('/api/v1/kilder')
    const listed = json.sources.flatMap((s: { id: string; operations: { name: string }[] }) =>
      s.operations.map((o) => `${s.id}/${o.name}`),
    )
    expect(listed.filter((name: string) => !(name in calls))).toEqual([])
    expect(Object.keys(calls).filter((name) => !listed.includes(name))).toEqual([])
    // No operation lacks a key: the demo gives `demo` for each.
    expect(json.sources.filter((s: { configuration?: string }) => s.configuration)).toEqual([])
  })

  it('answers every call 200 with data, and says in _meta and _provenance that it is demo data', {
    timeout: 180_000,
  }, async () => {
    const failures: string[] = []
    for (const [operation, queries] of Object.entries(calls)) {
      for (const query of queries) {
        const path = `/api/v1/kilder/${operation}${query ? `?${query.replaceAll(' ', '%20')}` : ''}`
        const { status, json } = await getJson(path)
        if (status !== 200) failures.push(`${path}: ${status} ${json.error?.code} ${json.error?.message}`)
        else if (!holdsSomething(json.data)) failures.push(`${path}: 200 with no data`)
        else if (json._meta.demo !== true || typeof json._provenance.demo !== 'string')
          failures.push(`${path}: not marked as demo data`)
      }
    }
    expect(failures).toEqual([])
  })

  it('marks the place bundle, search and descriptors as demo data too', async () => {
    const bundle = await getJson('/api/v1/steder/59.91/10.75?section=summary')
    expect(bundle.status).toBe(200)
    expect(bundle.json._meta).toMatchObject({ demo: true })
    const search = await getJson('/api/v1/sok/alle?q=Equinor')
    expect(search.status).toBe(200)
    expect(search.json._meta.demo).toBe(true)
  })

  it('keeps its answers apart from real ones, and in memory only', async () => {
    // REDIS_URL was given and left out: the answers above came, so nothing waited on Redis.
    expect(demo.env.REDIS_URL).toBeUndefined()
    const first = await fetch(`${base}/api/v1/kilder/statnett/get_physical_flow`)
    const again = await fetch(`${base}/api/v1/kilder/statnett/get_physical_flow`)
    expect(again.headers.get('cache-status')).toContain('hit')
    expect(first.headers.get('etag')).toBe(again.headers.get('etag'))
  })

  it('serves the explorer and the OpenAPI document', async () => {
    const page = await fetch(`${base}/api/v1/docs`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect((await getJson('/api/v1/openapi.json')).status).toBe(200)
  })

  it('answers an MCP tool call with demo data', async () => {
    const client = new Client({ name: 'allmenning-demo-e2e', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/statnett/mcp`)))
    try {
      const result = await client.callTool({ name: 'get_physical_flow', arguments: { area: 'NO1' } })
      expect(result.isError).toBeFalsy()
      expect(JSON.stringify(result.structuredContent)).toContain('"demo":true')
    } finally {
      await client.close()
    }
  })

  it('reports every source in /api/v1/health, none of them not configured', async () => {
    const { status, json } = await getJson('/api/v1/health')
    expect(status).toBe(200)
    expect(json.counts.not_configured).toBe(0)
    expect(json.sources.find((s: { id: string }) => s.id === 'statnett').last_ok_at).not.toBeNull()
  })
})
