import * as v from 'valibot'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'
import { findAddressesNearby } from './find-addresses-nearby.js'
import { findPlaceNamesNearby } from './find-place-names-nearby.js'
import { geonorge } from './index.js'
import { searchAddress } from './search-address.js'
import { searchPlaceName } from './search-place-name.js'
import { startFakeKartverketAdresser, startFakeKartverketStedsnavn } from './testing/fake-kartverket.js'

let adresser: FakeUpstream
let stedsnavn: FakeUpstream
let gateway: Gateway

const gatewayFor = (urls: { adresser?: string; stedsnavn?: string } = {}, timeoutMs = 1000) =>
  createGateway({
    sources: [geonorge()],
    upstreams: {
      kartverket_adresser: { baseUrl: urls.adresser ?? adresser.baseUrl, timeoutMs },
      kartverket_stedsnavn: { baseUrl: urls.stedsnavn ?? stedsnavn.baseUrl, timeoutMs },
    },
    onError: () => {},
  })

const call = async (operation: string, query: string, on: Gateway = gateway) => {
  const res = await on.handle({ method: 'GET', path: `/api/v1/kilder/geonorge/${operation}`, query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body!) }
}

/** `data` without the has_more_results the core adds, to check it against the declared output. */
const declared = (data: Record<string, unknown>) => {
  const { has_more_results: _more, ...rest } = data
  return rest
}

beforeAll(async () => {
  ;[adresser, stedsnavn] = await Promise.all([startFakeKartverketAdresser(), startFakeKartverketStedsnavn()])
  gateway = gatewayFor()
})
afterAll(() => Promise.all([adresser.close(), stedsnavn.close()]))
beforeEach(() => {
  adresser.requests.length = 0
  stedsnavn.requests.length = 0
})

describe('search_address', () => {
  it('finds addresses by text, in WGS84, as {addresses, has_more_results}', async () => {
    const { status, json } = await call('search_address', 'text=Robert%20Levins%20gate')
    expect(status).toBe(200)
    expect(v.is(searchAddress.output, declared(json.data))).toBe(true)
    expect(json.data.has_more_results).toBe(false)
    expect(json.data.addresses.map((a: { address: string }) => a.address)).toEqual([
      'Robert Levins gate 1',
      'Robert Levins gate 3',
      'Robert Levins gate 5B',
    ])
    expect(json.data.addresses[2]).toEqual({
      address: 'Robert Levins gate 5B',
      street: 'Robert Levins gate',
      number: 5,
      letter: 'B',
      additional_name: null,
      postal_code: '0150',
      postal_place: 'OSLO',
      municipality_number: '0301',
      municipality: 'OSLO',
      gnr: 207,
      bnr: 456,
      fnr: 0,
      address_type: 'Vegadresse',
      // Kartverket gives the position to double precision; it is passed on as given.
      lat: 59.91329051846333,
      lon: 10.75671723364815,
      updated_at: '2022-08-30T14:03:17',
    })
    expect(json._meta.pagination).toEqual({
      limit: 25,
      offset: 0,
      returned: 3,
      has_more_results: false,
      next_offset: null,
      total: 3,
    })
    expect(adresser.requests).toEqual([
      '/adresser/v1/sok?sok=Robert+Levins+gate&utkoordsys=4326&treffPerSide=25&side=0',
    ])
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({
        id: 'kartverket_adresser',
        publisher: 'Kartverket (Norwegian Mapping Authority)',
        license: 'CC BY 4.0',
        calls: 1,
      }),
    ])
  })

  it('takes the request the public gateway’s clients send and gives the fields they read', async () => {
    const { status, json } = await call('search_address', 'text=Karl%20Johans%20gate%2022&kommunenummer=0301&limit=5')
    expect(status).toBe(200)
    const [first] = json.data.addresses
    expect(first).toMatchObject({ address: 'Karl Johans gate 22', lat: 59.91356901274554, lon: 10.740418355472109 })
    expect(json.data.has_more_results).toBe(false)
  })

  it('maps Kartverket’s pages onto limit and offset: one page on page boundaries, two across one, each page fetched once', async () => {
    const page = await call('search_address', 'text=oslo&limit=3&offset=3')
    expect(page.json.data.addresses).toHaveLength(3)
    expect(page.json._meta.pagination).toEqual({
      limit: 3,
      offset: 3,
      returned: 3,
      has_more_results: true,
      next_offset: 6,
      total: 7,
    })
    expect(adresser.requests).toEqual(['/adresser/v1/sok?sok=oslo&utkoordsys=4326&treffPerSide=3&side=1'])
    adresser.requests.length = 0
    const across = await call('search_address', 'text=oslo&limit=3&offset=2')
    const all = await call('search_address', 'text=oslo&limit=10')
    expect(across.json.data.addresses).toEqual(all.json.data.addresses.slice(2, 5))
    // Rows 2–4 need pages 0 and 1; page 1 is still fresh from the call before, so only page 0 is asked for.
    expect(adresser.requests.slice(0, 1)).toEqual(['/adresser/v1/sok?sok=oslo&utkoordsys=4326&treffPerSide=3&side=0'])
    expect(adresser.requests).not.toContain('/adresser/v1/sok?sok=oslo&utkoordsys=4326&treffPerSide=3&side=1')
    const last = await call('search_address', 'text=oslo&limit=3&offset=6')
    expect(last.json._meta.pagination).toMatchObject({ returned: 1, has_more_results: false, total: 7 })
  })

  it('maps a cadastral address, which has no street', async () => {
    const { json } = await call('search_address', 'text=98/5')
    expect(json.data.addresses).toEqual([
      expect.objectContaining({
        address: '98/5',
        street: null,
        number: null,
        letter: null,
        additional_name: 'Heggmoen',
        address_type: 'Matrikkeladresse',
        municipality: 'HEMNES',
      }),
    ])
  })

  it('rejects a bad municipality number and a missing text with 400s naming them', async () => {
    const bad = await call('search_address', 'text=Storgata&kommunenummer=301')
    expect(bad.status).toBe(400)
    expect(bad.json.error.details).toEqual([
      { parameter: 'kommunenummer', problem: 'must be four digits, e.g. 0301', rule: 'regex' },
    ])
    const missing = await call('search_address', 'kommunenummer=0301')
    expect(missing.json.error.details).toEqual([{ parameter: 'text', problem: 'is required', rule: 'required' }])
    expect(adresser.requests).toEqual([])
  })

  it('is a 502 when Kartverket answers in a projected CRS instead of WGS84', async () => {
    const utm = await startFakeUpstream({
      '/sok': () => ({
        status: 200,
        headers: { 'content-type': 'application/json;charset=UTF-8' },
        body: JSON.stringify({
          metadata: { totaltAntallTreff: 1 },
          adresser: [
            { adressetekst: 'Storgata 1', representasjonspunkt: { epsg: 'EPSG:25833', lat: 6643100.2, lon: 598100.7 } },
          ],
        }),
      }),
    })
    try {
      const { status, json } = await call('search_address', 'text=Storgata', gatewayFor({ adresser: utm.baseUrl }))
      expect(status).toBe(502)
      expect(json.error).toMatchObject({ code: 'upstream_invalid_response', upstream: 'kartverket_adresser' })
      expect(json.error.message).toMatch(/EPSG:25833 where WGS84/)
    } finally {
      await utm.close()
    }
  })
})

describe('find_addresses_nearby', () => {
  it('finds the addresses within the radius, nearest first, with their distance', async () => {
    const { status, json } = await call('find_addresses_nearby', 'lat=59.91196&lon=10.73364&radius=500')
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ lat: 59.912, lon: 10.7336, radius: 500, limit: 25, offset: 0 })
    expect(v.is(findAddressesNearby.output, declared(json.data))).toBe(true)
    expect(json.data.addresses.map((a: { address: string; distance_m: number }) => [a.address, a.distance_m])).toEqual([
      ['Fridtjof Nansens plass 1', 4.6],
      ['Rådhusgata 5', 395.9],
      ['Karl Johans gate 22', 418.2],
    ])
    expect(adresser.requests).toEqual([
      '/adresser/v1/punktsok?lat=59.912&lon=10.7336&radius=500&koordsys=4258&utkoordsys=4326&treffPerSide=25&side=0',
    ])
  })

  it('uses a radius of 250 m by default and answers an empty list where there is nothing', async () => {
    const near = await call('find_addresses_nearby', 'lat=59.91196&lon=10.73364')
    expect(near.json.data.addresses.map((a: { address: string }) => a.address)).toEqual(['Fridtjof Nansens plass 1'])
    const sea = await call('find_addresses_nearby', 'lat=66.5&lon=2.0')
    expect(sea.status).toBe(200)
    expect(sea.json.data).toEqual({ addresses: [], has_more_results: false })
  })

  it('rejects out-of-bound coordinates and radius with 400s naming them', async () => {
    const { status, json } = await call('find_addresses_nearby', 'lat=95&lon=10&radius=6000')
    expect(status).toBe(400)
    expect(json.error.details).toEqual([
      { parameter: 'lat', problem: 'must be at most 90', rule: 'max_value' },
      { parameter: 'radius', problem: 'must be at most 5000', rule: 'max_value' },
    ])
  })
})

describe('search_place_name', () => {
  it('finds places with all their names, in the shape the public gateway’s clients read', async () => {
    const { status, json } = await call('search_place_name', 'text=Heggmo&navneobjekttype=Bruk&limit=10')
    expect(status).toBe(200)
    expect(v.is(searchPlaceName.output, declared(json.data))).toBe(true)
    // What the clients read: place_id, status, lat, lon and names[].name/status.
    const [place] = json.data.places
    expect({
      place_id: place.place_id,
      status: place.status,
      lat: place.lat,
      lon: place.lon,
      names: place.names.map(({ name, status }: { name: string; status: string }) => ({ name, status })),
    }).toEqual({
      place_id: 870466,
      status: 'aktiv',
      lat: 65.90951,
      lon: 14.26984,
      names: [{ name: 'Heggmoen', status: 'hovednavn' }],
    })
    expect(place).toMatchObject({
      name: 'Heggmoen',
      type: 'Bruk',
      municipalities: [{ number: '1832', name: 'Hemnes' }],
      counties: [{ number: '18', name: 'Nordland' }],
    })
    expect(json.data.has_more_results).toBe(false)
    expect(stedsnavn.requests).toEqual([
      '/stedsnavn/v1/sted?sok=Heggmo&navneobjekttype=Bruk&utkoordsys=4258&treffPerSide=10&side=1',
    ])
  })

  it('gives every name with its status and language, the main name as name', async () => {
    const { json } = await call('search_place_name', 'text=Kautokeino')
    expect(json.data.places[0]).toMatchObject({
      name: 'Guovdageaidnu',
      names: [
        { name: 'Guovdageaidnu', status: 'hovednavn', spelling_status: 'vedtatt', language: 'Nordsamisk' },
        { name: 'Kautokeino', status: 'hovednavn', spelling_status: 'vedtatt', language: 'Norsk' },
      ],
    })
  })

  it('finds one place by place_id and links each place as an entity', async () => {
    const { json } = await call('search_place_name', 'place_id=28597')
    expect(json.data.places.map((p: { name: string }) => p.name)).toEqual(['Oslo'])
    expect(json.data.places[0].names.map((n: { name: string; status: string }) => [n.name, n.status])).toEqual([
      ['Oslo', 'hovednavn'],
      ['Kristiania', 'historisk'],
    ])
    expect(json.entities).toEqual([
      {
        type: 'place',
        id: '28597',
        name: 'Oslo',
        source: 'geonorge',
        _links: { self: '/api/v1/kilder/geonorge/search_place_name?place_id=28597' },
      },
    ])
  })

  it('filters by municipality and is a 400 without text or place_id', async () => {
    const { json } = await call('search_place_name', 'text=Heggmoen&kommunenummer=1804')
    expect(json.data.places.map((p: { place_id: number }) => p.place_id)).toEqual([870512])
    expect(stedsnavn.requests.at(-1)).toContain('knr=1804')
    const neither = await call('search_place_name', 'kommunenummer=0301')
    expect(neither.status).toBe(400)
    expect(neither.json.error.details).toEqual([
      { parameter: 'text', problem: 'is required unless place_id is given', rule: 'required' },
    ])
  })
})

describe('find_place_names_nearby', () => {
  it('finds the named places within the radius, with their distance', async () => {
    const { status, json } = await call('find_place_names_nearby', 'lat=59.9112&lon=10.7339')
    expect(status).toBe(200)
    expect(v.is(findPlaceNamesNearby.output, declared(json.data))).toBe(true)
    expect(
      json.data.places.map((p: { name: string; type: string; distance_m: number }) => [p.name, p.type, p.distance_m]),
    ).toEqual([
      ['Rådhusplassen', 'Plass', 39],
      ['Oslo', 'By', 701],
    ])
    expect(json.entities.map((e: { id: string }) => e.id)).toEqual(['100241', '28597'])
    expect(stedsnavn.requests).toEqual([
      '/stedsnavn/v1/punkt?nord=59.9112&ost=10.7339&radius=1000&koordsys=4258&utkoordsys=4258&treffPerSide=25&side=1',
    ])
  })

  it('is a 400 for an offset deeper than Kartverket pages', async () => {
    const { status, json } = await call('find_place_names_nearby', 'lat=59.9112&lon=10.7339&limit=100&offset=50000')
    expect(status).toBe(400)
    expect(json.error.details).toEqual([
      {
        parameter: 'offset',
        problem: 'must leave offset + limit at most 50000 with limit 100 (the deepest the upstream pages)',
        rule: 'max_value',
      },
    ])
    expect(stedsnavn.requests).toEqual([])
  })
})

describe('Kartverket failures', () => {
  it.each([
    ['a 500', { status: 500, body: 'Internal Server Error' }, 'upstream_error', /answered HTTP 500/],
    [
      'a 400 it should not have given',
      { status: 400, headers: { 'content-type': 'application/json' }, body: '{"message":"Bad Request"}' },
      'upstream_error',
      /answered HTTP 400/,
    ],
    [
      'an HTML page',
      { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>Vedlikehold</h1></body></html>' },
      'upstream_invalid_response',
      /not valid JSON/,
    ],
    [
      'JSON of another shape',
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{"feil":"ukjent"}' },
      'upstream_invalid_response',
      /unexpected shape/,
    ],
    [
      'no answer in time',
      { status: 200, delayMs: 1500, body: '{}' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
  ])('answers %s with a 502 naming the Kartverket API that failed', async (_name, reply, code, message) => {
    const broken = await startFakeUpstream({
      '/sok': () => reply,
      '/punktsok': () => reply,
      '/sted': () => reply,
      '/punkt': () => reply,
    })
    try {
      const failing = gatewayFor({ adresser: broken.baseUrl, stedsnavn: broken.baseUrl }, 300)
      for (const [operation, query, upstream] of [
        ['search_address', 'text=Storgata', 'kartverket_adresser'],
        ['find_addresses_nearby', 'lat=59.9&lon=10.7', 'kartverket_adresser'],
        ['search_place_name', 'text=Oslo', 'kartverket_stedsnavn'],
        ['find_place_names_nearby', 'lat=59.9&lon=10.7', 'kartverket_stedsnavn'],
      ] as const) {
        const { status, json } = await call(operation, query, failing)
        expect(status).toBe(502)
        expect(json.error).toMatchObject({ status: 502, code, upstream })
        expect(json.error.message).toMatch(message)
        expect(JSON.stringify(json)).not.toMatch(/\.ts:\d+/)
      }
    } finally {
      await broken.close()
    }
  })
})
