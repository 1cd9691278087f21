import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { osloDate } from '../../shared/oslo-time.js'
import { artskart } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  const source = artskart()
  // Every upstream of the source is played: the demo maps each id the source declares.
  expect(Object.keys(demo.fakes).sort()).toEqual(source.upstreams.map((u) => u.id).sort())
  gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
})
afterAll(() => demo.close())

describe('the artskart demo upstreams', () => {
  it.each(['0301', '301', 'Oslo'])(
    'answer Oslo (%s) today with observations that have coordinates',
    async (municipality) => {
      const { status, json } = await gateway.call('artskart', 'find_observations', { municipality })
      expect(status).toBe(200)
      expect(json.data.to_date).toBe(osloDate())
      expect(json.data.observations.length).toBeGreaterThan(5)
      for (const row of json.data.observations) {
        expect(typeof row.latitude).toBe('number')
        expect(typeof row.longitude).toBe('number')
        expect(row.collected_date >= json.data.from_date && row.collected_date <= json.data.to_date).toBe(true)
      }
    },
  )

  it("answer the public gateway's documented call: municipality=301 from today, with limit and page_size", async () => {
    const { status, json } = await gateway.call('artskart', 'find_observations', {
      municipality: '301',
      from_date: osloDate(),
      limit: 50,
      page_size: 500,
    })
    expect(status).toBe(200)
    expect(json.data.observations.length).toBeGreaterThan(0)
    expect(json.data.observations.every((row: { collected_date: string }) => row.collected_date === osloDate())).toBe(
      true,
    )
  })

  it('answer a point in Oslo with the default radius, directly and in the place bundle', async () => {
    const { status, json } = await gateway.call('artskart', 'find_observations_nearby', { lat: 59.91, lon: 10.75 })
    expect(status).toBe(200)
    expect(json.data.observations.length).toBeGreaterThan(0)
    const place = await gateway.get('/api/v1/steder/59.91/10.75', { fields: 'species_observations' })
    expect(place.status).toBe(200)
    const field = place.json.fields.species_observations
    expect(field).toMatchObject({ status: 'ok', source: 'artskart', operation: 'find_observations_nearby' })
    expect(field.data.observations.length).toBeGreaterThan(0)
  })

  it('answer another recorded municipality (Bergen) too', async () => {
    const { json } = await gateway.call('artskart', 'find_observations', { municipality: '4601' })
    expect(json.data.observations.length).toBeGreaterThan(0)
  })

  it('leave nothing unexpected in the gateway', () => {
    expect(gateway.errors).toEqual([])
  })
})
