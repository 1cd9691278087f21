import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams, type TestGateway } from '@allmenning/core/testing'
import { anleggsregisteret } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
let gateway: TestGateway

beforeAll(async () => {
  demo = await startDemoUpstreams()
  const source = anleggsregisteret()
  // Every upstream of the source is played: the demo maps each id the source declares.
  expect(Object.keys(demo.fakes).sort()).toEqual(source.upstreams.map((u) => u.id).sort())
  gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
})
afterAll(() => demo.close())

describe('the anleggsregisteret demo upstreams', () => {
  it.each(['Oslo', '0301', '301'])('answer Oslo (%s) with facilities at the first call', async (municipality) => {
    const { status, json } = await gateway.call('anleggsregisteret', 'find_facilities', { municipality })
    expect(status).toBe(200)
    expect(json.data.facilities.length).toBeGreaterThan(5)
    const placed = json.data.facilities.filter((row: { lat: number | null }) => row.lat !== null)
    expect(placed.length).toBeGreaterThan(5)
    for (const row of placed) {
      expect(typeof row.lat).toBe('number')
      expect(typeof row.lon).toBe('number')
      expect(typeof row.id).toBe('number')
    }
  })

  it("answer the public gateway's call: municipality=Oslo with limit 500 and an offset", async () => {
    const { status, json } = await gateway.call('anleggsregisteret', 'find_facilities', {
      municipality: 'Oslo',
      limit: 500,
      offset: 0,
    })
    expect(status).toBe(200)
    expect(json.data.facilities.map((row: { status: string }) => row.status)).toContain('EXISTING')
  })

  it('answer other recorded municipalities and a status filter', async () => {
    for (const municipality of ['Bergen', 'Bærum', '4601']) {
      const { json } = await gateway.call('anleggsregisteret', 'find_facilities', { municipality })
      expect(json.data.facilities.length, municipality).toBeGreaterThan(0)
    }
    const existing = await gateway.call('anleggsregisteret', 'find_facilities', {
      municipality: 'Oslo',
      status: 'EXISTING',
    })
    expect(existing.json.data.facilities.length).toBeGreaterThan(0)
  })

  it('leave nothing unexpected in the gateway', () => {
    expect(gateway.errors).toEqual([])
  })
})
