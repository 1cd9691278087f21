import * as v from 'valibot'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { FakeUpstream } from '@allmenning/core/testing'
import { createFindSitesNearby } from './find-sites-nearby.js'
import { akvakultur } from './index.js'
import { createSiteRegister } from './site-register.js'
import {
  arcgisErrorReply,
  arcgisPage,
  fiskeridirPaths,
  layer0Features,
  startFakeFiskeridirGis,
  startFakePubAqua,
} from './testing/fake-fiskeridir.js'

let gis: FakeUpstream
let aqua: FakeUpstream

const gatewayFor = (timeoutMs = 1000) =>
  createGateway({
    sources: [akvakultur()],
    upstreams: {
      fiskeridir_gis: { baseUrl: gis.baseUrl, timeoutMs },
      fiskeridir_aqua: { baseUrl: aqua.baseUrl, timeoutMs },
    },
    onError: () => {},
  })
const call = async (g: Gateway, query: string) => {
  const res = await g.handle({ method: 'GET', path: '/api/v1/kilder/akvakultur/find_sites_nearby', query, headers: {} })
  return { ...res, json: JSON.parse(res.body ?? 'null') }
}
const output = createFindSitesNearby(createSiteRegister()).output
const layerRequests = () => gis.requests.filter((r) => r.includes(fiskeridirPaths.layer0))
const restoreLayer = () => gis.route(fiskeridirPaths.layer0, (url) => arcgisPage(layer0Features, url, 10))

beforeAll(async () => {
  gis = await startFakeFiskeridirGis()
  aqua = await startFakePubAqua()
})
afterAll(() => Promise.all([gis.close(), aqua.close()]))
afterEach(restoreLayer)

describe('find_sites_nearby from the map layer', () => {
  it('pages through the layer once and answers the sites nearest first, cleaned', async () => {
    const g = gatewayFor()
    const before = layerRequests().length
    const { status, json } = await call(g, 'lat=60.37&lon=5.28&radius_km=40&limit=100')
    expect(status).toBe(200)
    expect(v.is(output, json.data)).toBe(true)
    // 28 features at 10 a page: three calls, each continuing where the last page ended.
    const pages = layerRequests()
      .slice(before)
      .map((r) => new URL(r, 'http://x').searchParams)
    expect(pages.map((p) => p.get('resultOffset'))).toEqual(['0', '10', '20'])
    expect(pages[0]!.get('f')).toBe('geojson')
    expect(pages[0]!.get('outFields')).toContain('til_innehavere')
    expect(json.data.sites[0]).toEqual({
      site_nr: '13579',
      name: 'Kvarven',
      holders: 'Bergen Fjordfisk AS',
      municipality: 'Bergen',
      county: 'Vestland',
      status: 'KLARERT',
      capacity: 1560,
      capacity_unit: 'TN',
      species: 'Laks',
      url: null,
      lat: 60.37,
      lon: 5.28,
      distance_km: 0,
    })
    const distances = json.data.sites.map((s: { distance_km: number }) => s.distance_km)
    expect(distances).toEqual([...distances].sort((a, b) => a - b))
    expect(Math.max(...distances)).toBeLessThanOrEqual(40)
    expect(json.data.sites.map((s: { name: string }) => s.name)).not.toContain('Tarva')
    expect(json._raw_values).toMatchObject({
      register: 'fiskeridir_gis',
      register_sites: 26,
      register_sites_without_position: 2,
    })
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({
        id: 'fiskeridir_gis',
        publisher: 'Fiskeridirektoratet (Directorate of Fisheries)',
        license: 'NLOD 2.0',
        calls: 3,
      }),
    ])
    expect(json._provenance.data.source_api).toMatch(/\/FiskeridirWFS_akva\/MapServer\/0\/query\?where=1%3D1&/)

    // Another point, another radius: answered from the same copy of the register.
    const again = await call(g, 'lat=63.6&lon=9.7&radius_km=5')
    expect(again.json.data.sites.map((s: { name: string }) => s.name)).toEqual(['Tarva'])
    expect(layerRequests().length - before).toBe(3)
    expect(again.json._provenance.upstreams).toEqual([expect.objectContaining({ id: 'fiskeridir_gis', calls: 0 })])
  })

  it('answers the point as the places bundle asks it, with defaults', async () => {
    const { json } = await call(gatewayFor(), 'lat=60,37&lon=5,28')
    expect(json.parameters).toEqual({ lat: 60.37, lon: 5.28, radius_km: 10, limit: 25, offset: 0 })
    expect(json.data.sites[0].name).toBe('Kvarven')
  })

  it('rejects a latitude out of range with a 400 naming the bound', async () => {
    const { status, json } = await call(gatewayFor(), 'lat=-90.01&lon=5')
    expect(status).toBe(400)
    expect(json.error.details).toEqual([{ parameter: 'lat', problem: 'must be at least -90', rule: 'min_value' }])
  })
})

describe('when the map layer is empty', () => {
  it('falls back to the register API, 100 sites a call, and credits it', async () => {
    gis.route(fiskeridirPaths.layer0, (url) => arcgisPage([], url, 10))
    const before = aqua.requests.length
    const { status, json } = await call(gatewayFor(), 'lat=62.5&lon=6.0&radius_km=3')
    expect(status).toBe(200)
    expect(aqua.requests.slice(before)).toEqual([
      '/pub-aqua/api/v1/sites?range=0-99',
      '/pub-aqua/api/v1/sites?range=100-199',
    ])
    expect(json.data.sites.length).toBeGreaterThan(0)
    expect(json.data.sites[0]).toMatchObject({
      name: expect.stringMatching(/^Lokalitet 2\d{4}$/),
      holders: null,
      municipality: 'Herøy',
      county: 'Møre og Romsdal',
      status: 'AKTIV',
      capacity_unit: 'TN',
    })
    expect(json.data.sites.map((s: { species: string }) => s.species)).toEqual(
      expect.arrayContaining(['Laks', 'Laksefisk']),
    )
    expect(json._raw_values).toMatchObject({
      register: 'fiskeridir_aqua',
      register_sites: 129,
      register_sites_without_position: 1,
    })
    expect(json._provenance.upstreams.map((u: { id: string }) => u.id)).toEqual(['fiskeridir_gis', 'fiskeridir_aqua'])
  })

  it('is a 502 naming the register API when that fails too', async () => {
    gis.route(fiskeridirPaths.layer0, (url) => arcgisPage([], url, 10))
    aqua.route(fiskeridirPaths.sites, () => ({
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: '{"errors":["Internal error"]}',
    }))
    const { status, json } = await call(gatewayFor(), 'lat=62.5&lon=6.1')
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'fiskeridir_aqua' })
  })
})

describe('when both services answer an empty list', () => {
  const realNow = Date.now
  const emptyRegister = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '[]' })
  afterEach(async () => {
    Date.now = realNow
    await aqua.close()
    aqua = await startFakePubAqua()
  })

  it('is a 502 naming the register API, not "no sites", and asks again a minute later', async () => {
    gis.route(fiskeridirPaths.layer0, (url) => arcgisPage([], url, 10))
    aqua.route(fiskeridirPaths.sites, emptyRegister)
    const g = gatewayFor()
    const first = await call(g, 'lat=62.5&lon=6.0')
    expect(first.status).toBe(502)
    expect(first.headers['cache-control']).toBe('no-store')
    expect(first.json.error).toMatchObject({ code: 'upstream_invalid_response', upstream: 'fiskeridir_aqua' })
    expect(first.json.error.message).toMatch(/sent an implausible site register \(0 items, at least one expected\)/)
    restoreLayer()
    const later = realNow() + 60_000
    Date.now = () => later
    const again = await call(g, 'lat=62.5&lon=6.0')
    expect(again.status).toBe(200)
  })

  it('keeps answering from the last good register', async () => {
    const g = gatewayFor()
    const first = await call(g, 'lat=60.37&lon=5.28&radius_km=40')
    expect(first.json.data.sites.length).toBeGreaterThan(0)
    gis.route(fiskeridirPaths.layer0, (url) => arcgisPage([], url, 10))
    aqua.route(fiskeridirPaths.sites, emptyRegister)
    const nextDay = realNow() + 86_400_000 + 1000
    Date.now = () => nextDay
    const before = aqua.requests.length
    expect((await call(g, 'lat=60.37&lon=5.28&radius_km=40')).json.data.sites).toEqual(first.json.data.sites)
    await vi.waitFor(() => expect(aqua.requests.length - before).toBe(1))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect((await call(g, 'lat=60.37&lon=5.28&radius_km=39')).json.data.sites.length).toBeGreaterThan(0)
  })
})

describe('when the map service fails', () => {
  it.each([
    [
      'an ArcGIS error inside HTTP 200',
      arcgisErrorReply(500, 'Error performing query operation'),
      'upstream_error',
      /answered an error inside HTTP 200 \(500: Error performing query operation\)/,
    ],
    [
      'an error status',
      {
        status: 503,
        headers: { 'content-type': 'text/html' },
        body: '<html><body>503 Service Unavailable</body></html>',
      },
      'upstream_error',
      /answered HTTP 503/,
    ],
    [
      'no answer in time (it hangs)',
      { status: 200, delayMs: 2000, body: '{}' },
      'upstream_timeout',
      /did not answer within 300 ms/,
    ],
    [
      'JSON that is not a layer',
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{"features":"none"}' },
      'upstream_invalid_response',
      /unexpected shape/,
    ],
  ])('answers %s with a 502 naming the map service, not an empty list', async (_name, reply, code, message) => {
    gis.route(fiskeridirPaths.layer0, () => reply)
    const started = Date.now()
    const { status, json, body } = await call(gatewayFor(300), 'lat=60.37&lon=5.28')
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ status: 502, code, upstream: 'fiskeridir_gis' })
    expect(json.error.message).toMatch(/^Upstream Fiskeridirektoratet kartdata \(ArcGIS\) \(fiskeridir_gis\) /)
    expect(json.error.message).toMatch(message)
    expect(body).not.toMatch(/\.ts:\d+/)
    expect(Date.now() - started).toBeLessThan(1500)
  })

  it('fails the whole load when a later page carries the error', async () => {
    gis.route(fiskeridirPaths.layer0, (url) =>
      url.searchParams.get('resultOffset') === '10'
        ? arcgisErrorReply(500, 'Error performing query operation')
        : arcgisPage(layer0Features, url, 10),
    )
    const { status, json } = await call(gatewayFor(), 'lat=60.37&lon=5.28')
    expect(status).toBe(502)
    expect(json.error.upstream).toBe('fiskeridir_gis')
  })
})
