import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import {
  defineDataset,
  defineOperation,
  defineSource,
  defineUpstream,
  UpstreamError,
  upstreamNotConfigured,
  type PlaceFieldDeclaration,
} from '@allmenning/core/source'

// Stand-in sources that fill place fields the way real ones do: through ordinary operations
// taking lat and lon, callable on their own, declared with placeField.

const kartverk = defineUpstream({
  id: 'kartverk',
  name: 'Test address register',
  baseUrl: 'https://ws.example.no',
  publisher: 'Test Kartverk',
  license: 'CC BY 4.0',
})
const met = defineUpstream({
  id: 'metno',
  name: 'Test weather',
  baseUrl: 'https://api.example.no',
  publisher: 'Test MET',
  license: 'NLOD 2.0',
})
const keyed = defineUpstream({
  id: 'keyed',
  name: 'Keyed chargers',
  baseUrl: 'https://chargers.example.no',
  publisher: 'Chargers AS',
})

const point = {
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
  lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
}
const calls: string[] = []

const addresses = [
  { id: 'a1', name: 'Karl Johans gate 1, Oslo', lat: 59.9111, lon: 10.7503 },
  { id: 'a2', name: 'Karl Johans gate 22, Oslo', lat: 59.9127, lon: 10.7411 },
]

const field = (name: string, section: string, summary = false): PlaceFieldDeclaration => ({
  name,
  section,
  description: `The ${name} of the point.`,
  ...(summary ? { summary } : {}),
})

function placeOperation(
  name: string,
  field: PlaceFieldDeclaration,
  run: (p: { lat: number; lon: number }) => Promise<unknown>,
  upstream = kartverk,
) {
  return defineOperation({
    name,
    description: `Fills ${field.name}.`,
    parameters: point,
    output: v.array(v.unknown()),
    placeField: field,
    async run(params, ctx) {
      calls.push(`${name}:${params.lat},${params.lon}`)
      ctx.upstream(upstream)
      return { data: (await run(params)) as unknown[] }
    },
  })
}

const geo = defineSource({
  id: 'geo',
  name: 'Test geography',
  description: 'Addresses and place names.',
  documentation: 'https://example.no/geo',
  topic: 'places',
  keywords: ['address'],
  contentLanguages: ['no'],
  cacheTtlSeconds: 600,
  upstreams: [kartverk],
  entityTypes: { address: { operation: 'nearest_addresses', parameter: 'lat' } },
  entitySearch: {
    async search(q) {
      const found = addresses.filter((a) => a.name.toLowerCase().includes(q.toLowerCase()))
      return {
        hits: [
          ...found.map((a) => ({ type: 'address', id: a.id, name: a.name, lat: a.lat, lon: a.lon })),
          { type: 'address', id: 'nowhere', name: `${q} (no place)` },
        ],
      }
    },
  },
  operations: [
    placeOperation('nearest_addresses', field('addresses', 'geography', true), async () => addresses),
    placeOperation('nearest_place_names', field('place_names', 'geography', true), async () => [{ name: 'Oslo' }]),
  ],
})

const weather = defineSource({
  id: 'wx',
  name: 'Test weather',
  description: 'Weather.',
  documentation: 'https://example.no/wx',
  topic: 'weather',
  keywords: ['weather'],
  contentLanguages: ['en'],
  cacheTtlSeconds: 1800,
  upstreams: [met, keyed],
  operations: [
    placeOperation(
      'now',
      field('current_weather', 'weather', true),
      async ({ lat }) => [{ temperature_c: lat > 0 ? 4.5 : 20 }],
      met,
    ),
    placeOperation('forecast', field('forecast', 'weather'), () => new Promise(() => {}), met),
    placeOperation(
      'stations',
      field('air_stations', 'air'),
      async () => {
        throw new UpstreamError(met, 'status', 'answered HTTP 500', 500)
      },
      met,
    ),
    placeOperation(
      'chargers',
      field('charging_stations', 'energy'),
      async () => {
        throw upstreamNotConfigured(keyed, 'ALLMENNING_KEYED_API_KEY')
      },
      keyed,
    ),
  ],
})

const gateway = (): Gateway =>
  createGateway({ sources: [geo, weather], places: { deadlineMs: 300 }, onError: () => {} })

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function get(
  g: Gateway,
  path: string,
  query = '',
): Promise<{ status: number; json: any; headers: Record<string, string> }> {
  const res = await g.handle({ method: 'GET', path, query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body!), headers: res.headers }
}

describe('/steder/{lat}/{lon}', () => {
  it('answers the summary section by default, each field with its status, source, attribution and link', async () => {
    const { status, json } = await get(gateway(), '/api/v1/steder/59.9139/10.7522')
    expect(status).toBe(200)
    expect(json).toMatchObject({
      lat: 59.9139,
      lon: 10.7522,
      section: 'summary',
      requested_fields: ['addresses', 'place_names', 'current_weather'],
    })
    expect(json.fields.addresses).toMatchObject({
      section: 'geography',
      status: 'ok',
      source: 'geo',
      operation: 'nearest_addresses',
      data: addresses,
      attribution: [{ upstream: 'kartverk', publisher: 'Test Kartverk', license: 'CC BY 4.0' }],
      _links: { api: '/api/v1/kilder/geo/nearest_addresses?lat=59.9139&lon=10.7522' },
    })
    expect(json.fields.current_weather).toMatchObject({
      section: 'weather',
      status: 'ok',
      data: [{ temperature_c: 4.5 }],
    })
    expect(json.summary).toEqual({ ok: 3, stale: 0, failed: 0 })
    expect(json._links.sections.energy).toBe('/api/v1/steder/59.9139/10.7522?section=energy')
  })

  it('never lets a hanging, failing or unconfigured field sink the bundle', async () => {
    const started = Date.now()
    const { status, json } = await get(
      gateway(),
      '/api/v1/steder/59.9/10.7',
      'fields=forecast,air_stations,charging_stations,current_weather',
    )
    expect(Date.now() - started).toBeLessThan(1500)
    expect(status).toBe(200)
    expect(json.section).toBeNull()
    expect(json.fields.forecast).toMatchObject({ status: 'timeout', source: 'wx' })
    expect(json.fields.air_stations).toMatchObject({
      status: 'error',
      message: 'Upstream Test weather (metno) answered HTTP 500',
    })
    expect(json.fields.charging_stations).toMatchObject({
      status: 'not_configured',
      configure: 'ALLMENNING_KEYED_API_KEY',
    })
    expect(json.fields.current_weather.status).toBe('ok')
    expect(json.summary).toEqual({ ok: 1, stale: 0, failed: 3 })
  })

  it('is a 502 only when every field failed', async () => {
    const { status, json } = await get(gateway(), '/api/v1/steder/59.9/10.7', 'fields=air_stations,charging_stations')
    expect(status).toBe(502)
    expect(json.error.details.map((d: { parameter: string }) => d.parameter)).toEqual([
      'air_stations',
      'charging_stations',
    ])
  })

  it.each([
    ['/api/v1/steder/91/10', '', 'lat', 'must be at most 90'],
    ['/api/v1/steder/59.9/-180.5', '', 'lon', 'must be at least -180'],
    ['/api/v1/steder/north/10', '', 'lat', 'must be a number (got "north")'],
    // The sections and fields this gateway's sources declare, not a list the core keeps.
    [
      '/api/v1/steder/59.9/10',
      'section=everything',
      'section',
      'must be one of: summary, geography, weather, air, energy, all',
    ],
    [
      '/api/v1/steder/59.9/10',
      'section=maritime',
      'section',
      'must be one of: summary, geography, weather, air, energy, all',
    ],
    [
      '/api/v1/steder/59.9/10',
      'fields=addresses,rainbows',
      'fields',
      'must be a comma-separated list of: addresses, place_names, current_weather, forecast, air_stations, charging_stations',
    ],
    [
      '/api/v1/steder/59.9/10',
      'fields=vessels',
      'fields',
      expect.stringMatching(/^must be a comma-separated list of: addresses, /),
    ],
  ])('answers %s?%s with a 400 naming %s and the rule', async (path, query, parameter, problem) => {
    const { status, json } = await get(gateway(), path, query)
    expect(status).toBe(400)
    expect(json.error.details).toEqual([expect.objectContaining({ parameter, problem })])
  })

  it("takes a decimal comma, and shares the operations' cache with their own routes", async () => {
    const g = gateway()
    calls.length = 0
    await get(g, '/api/v1/kilder/geo/nearest_addresses', 'lat=59.91&lon=10.75')
    const bundle = await get(g, '/api/v1/steder/59,91/10,75', 'fields=addresses')
    expect(bundle.json.fields.addresses.status).toBe('ok')
    expect(calls).toEqual(['nearest_addresses:59.91,10.75'])
    const again = await get(g, '/api/v1/steder/59,91/10,75', 'fields=addresses')
    expect(again.headers['cache-status']).toMatch(/hit/)
  })

  it('describes both routes in OpenAPI and the API index', async () => {
    const g = gateway()
    const openapi = (await get(g, '/api/v1/openapi.json')).json
    expect(openapi.paths['/api/v1/steder/{lat}/{lon}'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'lat',
      'lon',
      'section',
      'fields',
    ])
    expect(openapi.paths['/api/v1/steder/sok'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'q',
      'limit',
    ])
    const index = (await get(g, '/api/v1/')).json
    expect(index.endpoints.place).toEqual({
      method: 'GET',
      url_template: '/api/v1/steder/{lat}/{lon}{?section,fields}',
    })
  })
})

describe('/steder/sok', () => {
  it('finds places with coordinates, each linked to its bundle, and leaves out hits without a place', async () => {
    const { status, json } = await get(gateway(), '/api/v1/steder/sok', 'q=karl%20johans%20gate%201')
    expect(status).toBe(200)
    expect(json.results[0]).toMatchObject({
      type: 'address',
      id: 'a1',
      name: 'Karl Johans gate 1, Oslo',
      lat: 59.9111,
      lon: 10.7503,
      source: 'geo',
      _links: { place: '/api/v1/steder/59.9111/10.7503' },
    })
    expect(json.results.every((r: { lat: number }) => Number.isFinite(r.lat))).toBe(true)
    expect(json.returned).toBe(json.results.length)
  })

  it('requires q', async () => {
    const { status, json } = await get(gateway(), '/api/v1/steder/sok')
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'q', rule: 'required' })
  })
})

describe('a place field a plugin adds', () => {
  const gauge = defineUpstream({
    id: 'gauge',
    name: 'Test tide gauge',
    baseUrl: 'https://tide.example.no',
    publisher: 'Test Sea Levels',
  })
  const tides = defineSource({
    id: 'tides',
    name: 'Test tides',
    description: 'Sea levels and snow depths.',
    documentation: 'https://example.no/tides',
    topic: 'weather',
    keywords: ['tide'],
    contentLanguages: ['en'],
    cacheTtlSeconds: 600,
    upstreams: [gauge],
    operations: [
      placeOperation(
        'tide_levels',
        { name: 'tide_levels', section: 'hydrology', description: 'Sea level at the nearest tide gauge.' },
        async () => [{ level_cm: 112 }],
        gauge,
      ),
      placeOperation(
        'snow_depth',
        { name: 'snow_depth', section: 'weather', description: 'Snow depth at the nearest station.' },
        async () => [{ depth_cm: 30 }],
        gauge,
      ),
      // A second provider of a field another source already fills: the first source given wins.
      placeOperation(
        'own_forecast',
        { name: 'forecast', section: 'hydrology', description: 'Another forecast.' },
        async () => [],
        gauge,
      ),
    ],
  })
  const withTides = (): Gateway =>
    createGateway({ sources: [geo, weather, tides], places: { deadlineMs: 300 }, onError: () => {} })

  it('is fetched in its new section, credited to its source', async () => {
    const { status, json } = await get(withTides(), '/api/v1/steder/59.9/10.7', 'section=hydrology')
    expect(status).toBe(200)
    expect(json.requested_fields).toEqual(['tide_levels'])
    expect(json.fields.tide_levels).toMatchObject({
      section: 'hydrology',
      status: 'ok',
      source: 'tides',
      operation: 'tide_levels',
      data: [{ level_cm: 112 }],
    })
    expect(json.fields.tide_levels.attribution).toEqual([{ upstream: 'gauge', publisher: 'Test Sea Levels' }])
    expect(Object.keys(json._links.sections)).toEqual([
      'summary',
      'geography',
      'weather',
      'air',
      'energy',
      'hydrology',
      'all',
    ])
  })

  it('joins an existing section after its fields, and every field is in all', async () => {
    const weatherSection = await get(withTides(), '/api/v1/steder/59.9/10.7', 'section=weather')
    expect(weatherSection.json.requested_fields).toEqual(['current_weather', 'forecast', 'snow_depth'])
    expect(weatherSection.json.fields.forecast.source).toBe('wx')
    const everything = await get(withTides(), '/api/v1/steder/59.9/10.7', 'section=all')
    expect(everything.json.requested_fields).toEqual([
      'addresses',
      'place_names',
      'current_weather',
      'forecast',
      'air_stations',
      'charging_stations',
      'tide_levels',
      'snow_depth',
    ])
  })

  it('is taken by fields=, and an unknown field is a 400 naming fields and listing the new one', async () => {
    const picked = await get(withTides(), '/api/v1/steder/59.9/10.7', 'fields=snow_depth,tide_levels')
    expect(picked.status).toBe(200)
    expect(picked.json.requested_fields).toEqual(['snow_depth', 'tide_levels'])
    expect(picked.json.fields.snow_depth).toMatchObject({ section: 'weather', status: 'ok', data: [{ depth_cm: 30 }] })
    const unknown = await get(withTides(), '/api/v1/steder/59.9/10.7', 'fields=tide_levels,wave_height')
    expect(unknown.status).toBe(400)
    expect(unknown.json.error.details).toEqual([
      {
        parameter: 'fields',
        problem:
          'must be a comma-separated list of: addresses, place_names, current_weather, forecast, air_stations, charging_stations, tide_levels, snow_depth',
        rule: 'check',
      },
    ])
  })

  it('is listed in OpenAPI and the API index with its section and description', async () => {
    const openapi = (await get(withTides(), '/api/v1/openapi.json')).json
    const parameters = openapi.paths['/api/v1/steder/{lat}/{lon}'].get.parameters as {
      name: string
      description?: string
      schema: { enum?: string[] }
    }[]
    const section = parameters.find((p) => p.name === 'section')!
    const fields = parameters.find((p) => p.name === 'fields')!
    expect(section.schema.enum).toEqual(['summary', 'geography', 'weather', 'air', 'energy', 'hydrology', 'all'])
    expect(section.description).toContain('hydrology (tide_levels)')
    expect(section.description).toContain('weather (current_weather, forecast, snow_depth)')
    expect(fields.description).toContain('tide_levels (hydrology): Sea level at the nearest tide gauge.')
    const index = (await get(withTides(), '/api/v1/')).json
    expect(index.places.sections).toEqual(['summary', 'geography', 'weather', 'air', 'energy', 'hydrology', 'all'])
    expect(index.places.fields.find((f: { name: string }) => f.name === 'tide_levels')).toEqual({
      name: 'tide_levels',
      section: 'hydrology',
      description: 'Sea level at the nearest tide gauge.',
      summary: false,
      source: 'tides',
      operation: 'tide_levels',
    })
    // Without the plugin, the gateway does not offer what it cannot fill.
    const plain = (await get(gateway(), '/api/v1/openapi.json')).json
    expect(
      plain.paths['/api/v1/steder/{lat}/{lon}'].get.parameters.find((p: { name: string }) => p.name === 'section')
        .schema.enum,
    ).not.toContain('hydrology')
  })

  it('leaves summary empty unless it says summary: true, and an empty summary is a 502 that says so', async () => {
    const alone = createGateway({ sources: [tides], onError: () => {} })
    const { status, json } = await get(alone, '/api/v1/steder/59.9/10.7')
    expect(status).toBe(502)
    expect(json.error.message).toBe('No source of this gateway fills a field of section summary')
    expect((await get(alone, '/api/v1/steder/59.9/10.7', 'section=all')).json.requested_fields).toEqual([
      'tide_levels',
      'snow_depth',
      'forecast',
    ])
  })

  it('is refused at start-up when it takes a section of the core or a name that is not snake_case', () => {
    const sourceWith = (declaration: PlaceFieldDeclaration) =>
      defineSource({
        ...tides,
        id: 'bad',
        operations: [placeOperation('bad_field', declaration, async () => [], gauge)],
      })
    expect(() =>
      createGateway({ sources: [sourceWith({ name: 'tide_levels', section: 'all', description: 'x' })] }),
    ).toThrow(/section "all" is the core's own/)
    expect(() =>
      createGateway({ sources: [sourceWith({ name: 'Tide-Levels', section: 'hydrology', description: 'x' })] }),
    ).toThrow(/must be snake_case/)
  })

  it('is refused with a message, not a TypeError, when a plugin in plain JavaScript gives a bare name or leaves a part out', () => {
    const sourceWith = (declaration: unknown) =>
      defineSource({
        ...tides,
        id: 'bad',
        operations: [placeOperation('bad_field', declaration as PlaceFieldDeclaration, async () => [], gauge)],
      })
    expect(() => createGateway({ sources: [sourceWith('tide_levels')] })).toThrow(
      /placeField must be an object \{ name, section, description \} \(got "tide_levels"\)/,
    )
    expect(() => createGateway({ sources: [sourceWith({ name: 'tide_levels', section: 'hydrology' })] })).toThrow(
      /place field tide_levels needs a description/,
    )
    expect(() => createGateway({ sources: [sourceWith({ name: 'tide_levels', description: 'x' })] })).toThrow(
      /section undefined must be snake_case/,
    )
  })
})

describe('a field the deployment has not configured', () => {
  const licensed = defineUpstream({
    id: 'licensed',
    name: 'Licensed levels',
    baseUrl: 'https://levels.example.no',
    publisher: 'Levels AS',
  })
  const depths = defineDataset({
    id: 'depth_soundings',
    title: 'Test depth soundings',
    description: 'Soundings by point.',
    publisher: 'Test Hydrographic Office',
    license: 'CC BY 4.0',
    attribution: 'Contains data from the Test Hydrographic Office.',
    origin: { kind: 'download', page: 'https://example.no/soundings' },
    changes: 'yearly',
    tables: [{ name: 'soundings', columns: { cell: 'text', depth_m: 'real' }, indexes: [['cell']] }],
    files: [
      {
        name: 'soundings.csv',
        url: 'https://example.no/soundings.csv',
        content: {
          format: { type: 'delimited', delimiter: ';', quoting: 'none' },
          rows: () => (cells) => ({ table: 'soundings', row: { cell: cells[0] ?? null, depth_m: Number(cells[1]) } }),
        },
      },
    ],
  })
  const keyless = defineSource({
    id: 'keyless',
    name: 'Test keyless',
    description: 'Fields that need the deployment to give something.',
    documentation: 'https://example.no/keyless',
    topic: 'places',
    keywords: ['depth'],
    contentLanguages: ['en'],
    cacheTtlSeconds: 600,
    upstreams: [licensed],
    datasets: [depths],
    operations: [
      // The message names no variable at all: the setting to give travels on the error itself.
      placeOperation(
        'water_levels',
        { name: 'water_levels', section: 'hydrology', description: 'Water levels.' },
        async () => {
          throw upstreamNotConfigured(
            licensed,
            'places.levels.licenceFile',
            'needs its licence file: set places.levels.licenceFile in the deployment',
          )
        },
        licensed,
      ),
      // A message that happens to mention a variable does not decide what to configure.
      placeOperation(
        'wave_heights',
        { name: 'wave_heights', section: 'hydrology', description: 'Wave heights.' },
        async () => {
          throw upstreamNotConfigured(
            licensed,
            'ALLMENNING_WAVES_TOKEN',
            'needs a token (ALLMENNING_OLD_WAVES_KEY is no longer read): set ALLMENNING_WAVES_TOKEN',
          )
        },
        licensed,
      ),
      defineOperation({
        name: 'depth_here',
        description: 'The sounded depth at a point.',
        parameters: point,
        output: v.array(v.unknown()),
        placeField: { name: 'depth', section: 'hydrology', description: 'The sounded depth.' },
        async run(_params, ctx) {
          return { data: await ctx.dataset(depths).select('soundings', { where: { cell: 'x' } }) }
        },
      }),
    ],
  })

  it('is not_configured with the setting the error carries, and a dataset not loaded with the command that loads it', async () => {
    // The dataset store says how it is loaded; the core knows no command line.
    const datasets = {
      reader: () => undefined,
      loadCommand: (dataset: { id: string }) => `load-soundings ${dataset.id}`,
    }
    const g = createGateway({ sources: [keyless], datasets, onError: () => {} })
    const { status, json } = await get(g, '/api/v1/steder/59.9/10.7', 'section=hydrology')
    expect(status).toBe(502)
    expect(json.error.details).toEqual([
      {
        parameter: 'water_levels',
        problem:
          'Upstream Licensed levels (licensed) needs its licence file: set places.levels.licenceFile in the deployment',
        rule: 'not_configured',
      },
      { parameter: 'wave_heights', problem: expect.stringContaining('needs a token'), rule: 'not_configured' },
      {
        parameter: 'depth',
        problem: expect.stringContaining('Dataset depth_soundings (Test depth soundings) is not loaded'),
        rule: 'not_configured',
      },
    ])
    const fields = (
      await get(
        createGateway({ sources: [geo, keyless], datasets, onError: () => {} }),
        '/api/v1/steder/59.9/10.7',
        'fields=addresses,water_levels,wave_heights,depth',
      )
    ).json.fields
    expect(fields.water_levels).toMatchObject({ status: 'not_configured', configure: 'places.levels.licenceFile' })
    expect(fields.wave_heights).toMatchObject({ status: 'not_configured', configure: 'ALLMENNING_WAVES_TOKEN' })
    expect(fields.depth).toMatchObject({ status: 'not_configured', configure: 'load-soundings depth_soundings' })
    const storeless = (
      await get(createGateway({ sources: [keyless], onError: () => {} }), '/api/v1/steder/59.9/10.7', 'fields=depth')
    ).json
    expect(storeless.error.details).toEqual([
      { parameter: 'depth', problem: expect.stringContaining('reads no dataset store'), rule: 'not_configured' },
    ])
  })
})

describe('an operation that fills a place field', () => {
  it('names the field, its section and description in its /schema', async () => {
    const schema = (await get(gateway(), '/api/v1/kilder/geo/nearest_addresses/schema')).json
    expect(schema.place_field).toEqual({
      name: 'addresses',
      section: 'geography',
      description: 'The addresses of the point.',
      summary: true,
    })
  })
})
