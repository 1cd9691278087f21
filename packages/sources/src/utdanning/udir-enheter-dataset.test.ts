import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createMemoryDatasetStore,
  createTestGateway,
  type FakeUpstream,
  type MemoryDatasetStore,
  type TestGateway,
} from '@allmenning/core/testing'
import { udirEnheter, utdanning } from './index.js'
import { nbrUnits, nsrUnits, recordsFile, startFakeKommuneinfo, startFakeNbr, startFakeNsr } from './testing/index.js'

// The operations over the udir_enheter dataset: every position read from it, no call to Udir.
let datasets: MemoryDatasetStore
let nsr: FakeUpstream
let nbr: FakeUpstream
let kommuneinfo: FakeUpstream
let gateway: TestGateway

type Row = {
  organization_id: string
  Navn: string
  lat: number | null
  lon: number | null
  coordinates_status: string
  distance_km?: number
}
const udirCalls = () => nsr.requests.length + nbr.requests.length

beforeAll(async () => {
  datasets = createMemoryDatasetStore()
  // The file of records (as the demo and a mirror give it): every fixture unit with its record.
  await datasets.loadFiles(
    udirEnheter,
    [
      { file: 'nsr-enheter.json', bytes: recordsFile(nsrUnits) },
      { file: 'nbr-enheter.json', bytes: recordsFile(nbrUnits) },
    ],
    { publishedAt: '2026-11-27' },
  )
  ;[nsr, nbr, kommuneinfo] = await Promise.all([startFakeNsr(), startFakeNbr(), startFakeKommuneinfo()])
  gateway = createTestGateway({
    sources: utdanning(),
    upstreams: { udir_nsr: nsr, udir_nbr: nbr, kartverket_kommuneinfo: kommuneinfo },
    datasets,
  })
})
afterAll(async () => {
  await Promise.all([nsr.close(), nbr.close(), kommuneinfo.close()])
  datasets.clear()
})

describe('utdanning over the udir_enheter dataset', () => {
  it('loads every unit of both registers, each with its position, area and grid cell', async () => {
    const reader = datasets.reader(udirEnheter)!
    expect(await reader.count('enheter')).toBe(nsrUnits.length + nbrUnits.length)
    const [bislett] = await reader.select('enheter', {
      where: { orgnr: '971200006' },
      columns: ['register', 'kommunenr', 'fylkesnr', 'posisjon', 'lat', 'lon', 'celle', 'postnr'],
    })
    expect(bislett).toEqual({
      register: 'nsr',
      kommunenr: '0301',
      fylkesnr: '03',
      posisjon: 'known',
      lat: 59.9255,
      lon: 10.7352,
      celle: '5992:536',
      postnr: '0168',
    })
    // Udir's (0, 0) "Undefined": a record with no position.
    const [toyen] = await reader.select('enheter', {
      where: { orgnr: '971200057' },
      columns: ['posisjon', 'lat', 'celle'],
    })
    expect(toyen).toEqual({ posisjon: 'none', lat: null, celle: null })
  })

  it('search_schools answers every row placed from the dataset, with no call to Udir however large the page', async () => {
    const before = udirCalls()
    const { status, json } = await gateway.call('utdanning', 'search_schools', { kommunenr: '0301', limit: 1000 })
    expect(status).toBe(200)
    expect(json.data.units.map((r: Row) => r.Navn)).toEqual([
      'Akersgata Montessoriskole',
      'Bislett skole',
      'Frogner spesialskole',
      'Grünerløkka skole',
      'Kampen skole',
      'Sentrum videregående skole',
      'Tøyen skole',
    ])
    expect(json.data).toMatchObject({
      positions_from: 'dataset',
      coordinates_known: 6,
      coordinates_missing: 1,
      coordinates_pending: 0,
      register_read_at: expect.any(String),
    })
    expect(json.data.units.find((r: Row) => r.Navn === 'Bislett skole')).toMatchObject({
      lat: 59.9255,
      lon: 10.7352,
      coordinates_status: 'known',
      address: 'Theresesgate 12, 0168 OSLO',
      ErGrunnskole: true,
      ErGrunnSkole: true,
    })
    expect(json._meta.datasets.map((d: { id: string }) => d.id)).toEqual(['udir_enheter'])
    expect(JSON.stringify(json._provenance)).toContain('Utdanningsdirektoratet')
    expect(udirCalls()).toBe(before)
  })

  it('search_schools by county and search_kindergartens by name of the municipality: still no call to Udir', async () => {
    const before = udirCalls()
    const county = await gateway.call('utdanning', 'search_schools', { fylkenr: '3', include_inactive: true })
    expect(county.status).toBe(200)
    expect(county.json.data.units.map((r: Row) => r.Navn)).toContain('Vaterland skole')
    const kindergartens = await gateway.call('utdanning', 'search_kindergartens', { kommunenr: 'Oslo' })
    expect(kindergartens.json.data).toMatchObject({
      total: 4,
      coordinates_known: 3,
      coordinates_missing: 1,
      positions_from: 'dataset',
    })
    expect(udirCalls()).toBe(before)
  })

  it('find_schools_nearby reads the grid cells around the point: nearest first, within the radius, no call to Udir', async () => {
    const before = udirCalls()
    const kartverket = kommuneinfo.requests.length
    const { status, json } = await gateway.call('utdanning', 'find_schools_nearby', { lat: 59.91, lon: 10.75 })
    expect(status).toBe(200)
    expect(json.data).toMatchObject({ positions_from: 'dataset', kommunenr: null })
    const rows: Row[] = json.data.units
    expect(rows.length).toBeGreaterThan(2)
    expect(rows.every((r) => r.distance_km! <= 2 && r.coordinates_status === 'known')).toBe(true)
    expect(rows.map((r) => r.distance_km)).toEqual(rows.map((r) => r.distance_km).sort((a, b) => a! - b!))
    expect(rows.map((r) => r.Navn)).not.toContain('Oslo tekniske fagskole')
    // Bærum's schools are 10 km away: not within 2 km, found with a wider radius.
    const wide = await gateway.call('utdanning', 'find_schools_nearby', { lat: 59.91, lon: 10.75, radius_km: 20 })
    expect(wide.json.data.units.map((r: Row) => r.Navn)).toContain('Sandvika videregående skole')
    expect(udirCalls()).toBe(before)
    // Nor Kartverket's: the dataset places the schools by themselves.
    expect(kommuneinfo.requests.length).toBe(kartverket)
  })

  it('get_unit answers a unit in operation from the dataset, and asks Udir only for one it has no record of', async () => {
    const before = udirCalls()
    const school = await gateway.call('utdanning', 'get_unit', { organization_id: '971200006' })
    expect(school.json.data).toMatchObject({
      register: 'nsr',
      Navn: 'Bislett skole',
      lat: 59.9255,
      Elevtall: 412,
      Koordinat: { Breddegrad: 59.9255 },
    })
    const kindergarten = await gateway.call('utdanning', 'get_unit', { organization_id: '988300012' })
    expect(kindergarten.json.data).toMatchObject({
      register: 'nbr',
      kind: 'kindergarten',
      Navn: 'Sofienberg barnehage',
    })
    expect(udirCalls()).toBe(before)
    const unknown = await gateway.call('utdanning', 'get_unit', { organization_id: '974760673' })
    expect(unknown.status).toBe(404)
    expect(udirCalls()).toBe(before + 2)
  })

  it('without the dataset, the rows say their positions were read at request time', async () => {
    const [s, b, k] = await Promise.all([startFakeNsr(), startFakeNbr(), startFakeKommuneinfo()])
    try {
      const plain = createTestGateway({
        sources: utdanning(),
        upstreams: { udir_nsr: s, udir_nbr: b, kartverket_kommuneinfo: k },
      })
      const { json } = await plain.call('utdanning', 'search_schools', { kommunenr: '0301' })
      expect(json.data.positions_from).toBe('requests')
      expect(s.requests.filter((path) => path.includes('/enhet/')).length).toBe(7)
    } finally {
      await Promise.all([s.close(), b.close(), k.close()])
    }
  })

  it('leaves nothing unexpected in the gateway', () => {
    expect(gateway.errors).toEqual([])
  })
})
