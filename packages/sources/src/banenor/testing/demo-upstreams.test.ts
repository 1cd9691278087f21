import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { banenor } from '../index.js'
import { DEMO_BANENOR_KEY, startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

describe('the demo upstreams of banenor', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      banenor()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it("answer every operation with the key demo: the boards of the clients' stations, now, and Oslo", async () => {
    const source = banenor({ subscriptionKey: DEMO_BANENOR_KEY })
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)
    // What the public gateway's clients send, and the documented examples.
    const osl = await calls.expectRows('get_station_board', {
      station_id: 'OSL',
      minutes_ahead: 60,
      max_trains: 20,
      limit: 20,
    })
    expect(osl.data.station).toMatchObject({ id: 'OSL', name: 'Oslo S', lat: 59.91092, lon: 10.75328 })
    expect(osl.data.trains.some((t: { service: string }) => t.service === 'freight')).toBe(true)
    expect(osl.data.trains.some((t: { departure_status: string }) => t.departure_status === 'cancelled')).toBe(true)
    for (const station_id of ['NTH', 'SKØ', 'skø', 'BR', 'ALB', 'Oslo S', 'TND', 'BRG']) {
      await calls.expectRows('get_station_board', { station_id, minutes_ahead: 60, max_trains: 20, limit: 20 })
    }
    await calls.expectRows('get_station_board', { station_id: 'OSL', direction: 'arrivals' })
    await calls.expectRows('get_station_board', { station_id: 'OSL', direction: 'both', service: 'freight' })
    await calls.expectRows('list_stations', { query: 'Skøyen' })
    await calls.expectRows('list_stations')
    const near = await calls.expectRows('find_stations_nearby', { lat: 59.91, lon: 10.75 })
    expect(near.data.stations[0].id).toBe('OSL')
    await calls.expectRows('find_stations_nearby', { lat: 59.91, lon: 10.75, radius_km: 5 })
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })

  it('still refuse another key', async () => {
    const gateway = createTestGateway({ sources: banenor({ subscriptionKey: 'not-a-key' }), upstreams: demo.fakes })
    expect((await gateway.call('banenor', 'get_station_board', { station_id: 'OSL' })).status).toBe(502)
  })
})
