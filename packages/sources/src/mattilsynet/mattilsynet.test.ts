import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '@allmenning/core/testing'
import { mattilsynet, smilefjes } from './index.js'
import { createMattilsynetDatasets, type MattilsynetDatasets } from './testing/loaded-datasets.js'
import { FIXTURE_LINES, inspection } from './testing/smilefjes-fixtures.js'

// The operations over the datasets loaded into the in-memory store of @allmenning/core/testing.
// The real import over the file's bytes, the sync and the geocoding step are tested in
// test/sources/mattilsynet, with the SQLite store of @allmenning/datasets.

const now = () => new Date('2026-11-28T10:00:00Z')
// One line of the fixture file that no reader should take: its date is not a date.
const BROKEN = inspection(
  {
    tilsynsobjektid: 'Z9',
    navn: 'Feil',
    adrlinje1: 'X 1',
    postnr: '0150',
    poststed: 'OSLO',
    tilsynid: 'T9',
    dato: '31022024',
  },
  [0, 0, 0, 0, 0],
)

let datasets: MattilsynetDatasets
let gateway: TestGateway

beforeAll(async () => {
  datasets = createMattilsynetDatasets()
  const result = await datasets.loadSmilefjes([...FIXTURE_LINES, BROKEN])
  expect(result).toMatchObject({ malformed: 1 })
  await datasets.loadAddressPoints()
  gateway = createTestGateway({ sources: mattilsynet({ now }), datasets: datasets.store })
})
afterAll(() => datasets.close())

const search = async (query: Record<string, string | number>) => {
  const res = await gateway.call('mattilsynet', 'search_establishments', query)
  expect(res.status, res.body ?? '').toBe(200)
  return res.json
}

describe('mattilsynet: the smilefjes file through the datasets', () => {
  it('keeps every inspection and, per establishment, the newest, whatever the order of the file', async () => {
    const reader = datasets.store.reader(smilefjes)!
    expect(await reader.count('tilsyn')).toBe(9)
    expect(await reader.count('tilsynsobjekter')).toBe(7)
    const [pizza] = await reader.select('tilsynsobjekter', { where: { tilsynsobjektid: 'Z1601011200000000002B' } })
    expect(pizza).toMatchObject({ dato: '2025-02-20', karakter: 0, tilsynid: 'Z2502201000000000202T' })
    // `1062022`: the leading zero of 01062022 lost, as a number loses it.
    expect(
      await reader.select('tilsyn', {
        where: { tilsynid: 'Z2206011000000000201T' },
        columns: ['dato', 'karakter', 'karakter4'],
      }),
    ).toEqual([{ dato: '2022-06-01', karakter: 3, karakter4: 1 }])
    const [sushi] = await reader.select('tilsynsobjekter', { where: { tilsynsobjektid: 'Z1601011200000000003C' } })
    expect(sushi).toMatchObject({
      navn: 'Sushi "Bølgen" & Co',
      orgnummer: null,
      adresse_key: 'karl johans gate 22b|0159',
      karakter4: 4,
    })
  })

  it('search_establishments: Oslo by postal place, newest first, with history, grades, and positions', async () => {
    const { data, _meta, _provenance } = await search({ poststed: 'Oslo', min_karakter: 0, limit: 100 })
    expect(data.total).toBe(5)
    expect(data.establishments.map((e: { dato: string }) => e.dato)).toEqual([
      '2025-11-03',
      '2025-02-20',
      '2024-10-01',
      '2024-09-09',
      '2024-05-15',
    ])
    const kafe = data.establishments.find((e: { navn: string }) => e.navn === 'Kafé Kvadraturen')
    expect(kafe).toMatchObject({
      establishment_id: 'Z1601011200000000001A',
      orgnummer: '912345670',
      adresse: 'Kirkegata 15',
      postnr: '0153',
      poststed: 'OSLO',
      karakter: 1,
      oppfolgingstilsyn: true,
      tilsyn_antall: 2,
      lat: 59.90868,
      lon: 10.74454,
      kommunenummer: '0301',
      plassering: 'address',
      tidligere_tilsyn: [{ tilsynid: 'Z2301101000000000101T', dato: '2023-01-10', karakter: 2 }],
    })
    expect(kafe.temaer).toEqual([
      { tema: 'Rutiner og ledelse', karakter: 1 },
      { tema: 'Lokaler og utstyr', karakter: 1 },
      { tema: 'Mat-håndtering og tilberedning', karakter: 0 },
      { tema: 'Merking og sporbarhet', karakter: 0 },
    ])
    const placement = Object.fromEntries(
      data.establishments.map((e: { navn: string; plassering: string }) => [e.navn, e.plassering]),
    )
    expect(placement).toEqual({
      'Kafé Kvadraturen': 'address',
      'Pizzabakeren Grünerløkka': 'address',
      'Sushi "Bølgen" & Co': 'address',
      'Nærbutikken Torggata': 'not_yet_geocoded',
      'Kantina på brygga': 'no_address',
    })
    expect(data.placed).toBe(3)
    expect(_meta.datasets.map((d: { id: string }) => d.id)).toEqual([
      'mattilsynet_smilefjes',
      'mattilsynet_adressepunkter',
    ])
    expect(_provenance.data.source).toContain('Mattilsynet')
    expect(_provenance.data.description).toContain('NLOD')
  })

  it('search_establishments: filters by grade, date, postal code, organisation number, name and municipality', async () => {
    const names = async (query: Record<string, string | number>) =>
      (await search(query)).data.establishments.map((e: { navn: string }) => e.navn)
    expect(await names({ poststed: 'OSLO', min_karakter: 2 })).toEqual(['Sushi "Bølgen" & Co'])
    expect(await names({ max_karakter: 0 })).toEqual(['Nærbutikken Torggata', 'Pizzabakeren Grünerløkka'])
    expect(await names({ since: '2025-01-01' })).toEqual([
      'Nærbutikken Torggata',
      'Bryggen Fiskerestaurant',
      'Pizzabakeren Grünerløkka',
    ])
    expect(await names({ postnr: '5003' })).toEqual(['Bryggen Fiskerestaurant'])
    expect(await names({ orgnummer: '956789014' })).toEqual(['Ishavskafeen'])
    expect(await names({ query: 'pizza' })).toEqual(['Pizzabakeren Grünerløkka'])
    expect(await names({ query: 'bølgen', poststed: 'oslo' })).toEqual(['Sushi "Bølgen" & Co'])
    for (const kommune of ['0301', '301', 'Oslo'])
      expect((await names({ kommune })).sort(), kommune).toEqual([
        'Kafé Kvadraturen',
        'Pizzabakeren Grünerløkka',
        'Sushi "Bølgen" & Co',
      ])
    expect(await names({ kommune: 'Tromsø' })).toEqual(['Ishavskafeen'])
  })

  it('pages with total, and refuses a limit above 1000 and contradicting grades, naming the parameter', async () => {
    const first = await search({ poststed: 'Oslo', limit: 2 })
    expect(first.data.establishments).toHaveLength(2)
    expect(first.data.total).toBe(5)
    expect(first.data.has_more_results).toBe(true)
    const last = await search({ poststed: 'Oslo', limit: 2, offset: 4 })
    expect(last.data.establishments.map((e: { navn: string }) => e.navn)).toEqual(['Kafé Kvadraturen'])
    for (const [query, parameter] of [
      [{ limit: 1001 }, 'limit'],
      [{ min_karakter: 3, max_karakter: 1 }, 'min_karakter'],
      [{ min_karakter: 4 }, 'min_karakter'],
      [{ since: '2024-02-30' }, 'since'],
      [{ postnr: '155' }, 'postnr'],
    ] as const) {
      const res = await gateway.call('mattilsynet', 'search_establishments', query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body).toContain(parameter)
    }
  })

  it('find_establishments_nearby: the placed establishments within the radius, nearest first, with the distance', async () => {
    const res = await gateway.call('mattilsynet', 'find_establishments_nearby', { lat: 59.91, lon: 10.75 })
    expect(res.status, res.body ?? '').toBe(200)
    const rows = res.json.data.establishments
    expect(rows.map((e: { navn: string }) => e.navn)).toEqual(['Kafé Kvadraturen', 'Sushi "Bølgen" & Co'])
    expect(rows[0].distance_km).toBeGreaterThan(0.3)
    expect(rows[0].distance_km).toBeLessThan(rows[1].distance_km)
    expect(typeof rows[0].lat).toBe('number')
    const wider = await gateway.call('mattilsynet', 'find_establishments_nearby', {
      lat: 59.91,
      lon: 10.75,
      radius_km: 3,
      min_karakter: 0,
      max_karakter: 1,
    })
    expect(wider.json.data.establishments.map((e: { navn: string }) => e.navn)).toEqual([
      'Kafé Kvadraturen',
      'Pizzabakeren Grünerløkka',
    ])
    expect(
      (await gateway.call('mattilsynet', 'find_establishments_nearby', { lat: 59.91, lon: 10.75, radius_km: 11 }))
        .status,
    ).toBe(400)
  })

  it('finds establishments by name in the search across sources, with their position', async () => {
    const res = await gateway.get('/api/v1/sok/alle', { q: 'Pizzabakeren', mode: 'entities' })
    expect(res.status, res.body ?? '').toBe(200)
    expect(JSON.stringify(res.json)).toContain('Pizzabakeren Grünerløkka')
    const places = await gateway.get('/api/v1/steder/sok', { q: 'Pizzabakeren' })
    expect(places.status, places.body ?? '').toBe(200)
    expect(JSON.stringify(places.json)).toContain('59.92291')
  })
})

describe('mattilsynet without the placed addresses', () => {
  it('lists establishments saying they are not placed yet, and the point search names the dataset to load', async () => {
    const alone = createMattilsynetDatasets()
    try {
      await alone.loadSmilefjes()
      const g = createTestGateway({ sources: mattilsynet({ now }), datasets: alone.store })
      const res = await g.call('mattilsynet', 'search_establishments', { poststed: 'Oslo' })
      expect(res.status).toBe(200)
      expect(new Set(res.json.data.establishments.map((e: { plassering: string }) => e.plassering))).toEqual(
        new Set(['not_yet_geocoded', 'no_address']),
      )
      expect(res.json.data.note).toContain('mattilsynet_adressepunkter')
      const near = await g.call('mattilsynet', 'find_establishments_nearby', { lat: 59.91, lon: 10.75 })
      expect(near.status).toBe(502)
      expect(near.json.error.code).toBe('dataset_not_loaded')
      expect(near.body).toContain('mattilsynet_adressepunkter')
    } finally {
      alone.close()
    }
  })
})
