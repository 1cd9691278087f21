import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { mattilsynet } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'
import { createMattilsynetDatasets, type MattilsynetDatasets } from './loaded-datasets.js'

let demo: DemoUpstreams
let datasets: MattilsynetDatasets
let gateway: TestGateway
const source = mattilsynet()

beforeAll(async () => {
  demo = await startDemoUpstreams()
  datasets = createMattilsynetDatasets()
  // What loadDemoDatasets of @allmenning/datasets/testing loads for the offline demo, published
  // today: the demo's files are these fixtures (test/sources/mattilsynet/fixture-records.test.ts
  // checks that their bytes give the same rows).
  const today = new Date().toISOString().slice(0, 10)
  await datasets.loadSmilefjes(undefined, today)
  await datasets.loadAddressPoints(undefined, today)
  gateway = createTestGateway({ sources: source, upstreams: demo.fakes, datasets: datasets.store })
})
afterAll(async () => {
  datasets.close()
  await demo.close()
})

describe('mattilsynet demo upstreams and datasets', () => {
  it('play every upstream the source declares, serving the smilefjes file with an ETag and a BOM', async () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(source.upstreams.map((u) => u.id).sort())
    const res = await fetch(`${demo.fakes.mattilsynet_data!.baseUrl}/smilefjes-tilsyn.csv`)
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const again = await fetch(`${demo.fakes.mattilsynet_data!.baseUrl}/smilefjes-tilsyn.csv`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
  })

  it('answers Oslo (0301, 301, Oslo), the documented calls and a point in Oslo with placed rows', async () => {
    const calls = await demoCalls(gateway, source)
    const oslo = await calls.expectRows('search_establishments', { poststed: 'Oslo', min_karakter: 0, limit: 100 })
    expect(oslo.data.establishments.some((e: { lat: number | null }) => typeof e.lat === 'number')).toBe(true)
    for (const kommune of ['0301', '301', 'Oslo']) await calls.expectRows('search_establishments', { kommune })
    await calls.expectRows('search_establishments', { query: 'pizza' })
    await calls.expectRows('search_establishments', { since: '2024-01-01' })
    const near = await calls.expectRows('find_establishments_nearby', { lat: 59.91, lon: 10.75 })
    expect(near.data.establishments[0].distance_km).toBeLessThan(1)
    expect(calls.uncalled()).toEqual([])
  })
})
