import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type DemoUpstreams } from '@allmenning/core/testing'
import { demoCalls } from '../../shared/demo-calls.js'
import { geonorge } from '../index.js'
import { startDemoUpstreams } from './demo-upstreams.js'

let demo: DemoUpstreams
beforeAll(async () => {
  demo = await startDemoUpstreams()
})
afterAll(() => demo.close())

const oslo = { lat: 59.91, lon: 10.75 }

describe('the demo upstreams of geonorge', () => {
  it('play every upstream id the source declares', () => {
    expect(Object.keys(demo.fakes).sort()).toEqual(
      geonorge()
        .upstreams.map((upstream) => upstream.id)
        .sort(),
    )
  })

  it('answer every operation for Oslo, Oslo municipality and the documented examples', async () => {
    const source = geonorge()
    const gateway = createTestGateway({ sources: source, upstreams: demo.fakes })
    const calls = await demoCalls(gateway, source)

    const texts = [
      'Robert Levins gate',
      'Robert Levins gate 1',
      'Karl Johans gate 22',
      'Jernbanetorget 1',
      'Oslo',
      'Torgallmenningen 1 Bergen',
    ]
    for (const text of texts) {
      await calls.expectRows('search_address', { text })
    }
    // What the public gateway's clients send to place an address: the municipality and one hit.
    const geocoded = await calls.expectRows('search_address', {
      text: 'Jernbanetorget 1',
      kommunenummer: '0301',
      limit: 1,
    })
    expect(geocoded.data.addresses[0]).toMatchObject({ address: 'Jernbanetorget 1', municipality_number: '0301' })
    await calls.expectRows('search_address', { text: 'gate', postnummer: '0150' })
    // A house number the demo does not hold finds the street's others.
    const street = await calls.expectRows('search_address', { text: 'Karl Johans gate 5', kommunenummer: '0301' })
    expect(street.data.addresses.every((address: { street: string }) => address.street === 'Karl Johans gate')).toBe(
      true,
    )

    const places = [
      { text: 'Heggmo' },
      { text: 'Heggmoen' },
      { text: 'Oslo' },
      { place_id: 28597 },
      { text: 'Oslo', kommunenummer: '0301' },
    ]
    for (const query of places) {
      await calls.expectRows('search_place_name', query)
    }
    // The clients list Oslo's districts a letter at a time.
    const districts = []
    for (const letter of 'ABFGNSUVØ') {
      const query = { text: `${letter}*`, kommunenummer: '0301', navneobjekttype: 'administrativBydel', limit: 100 }
      const answer = await calls.expectRows('search_place_name', query)
      districts.push(...answer.data.places.map((place: { name: string }) => place.name))
    }
    expect(new Set(districts).size).toBe(15)

    const near = await calls.expectRows('find_addresses_nearby', oslo)
    expect(near.data.addresses.every((address: { distance_m: number }) => address.distance_m <= 250)).toBe(true)
    await calls.expectRows('find_addresses_nearby', { lat: 59.91196, lon: 10.73364, radius: 500 })
    await calls.expectRows('find_place_names_nearby', oslo)
    await calls.expectRows('find_place_names_nearby', { lat: 59.9112, lon: 10.7339 })
    await calls.expectRows('find_place_names_nearby', { lat: 59.91196, lon: 10.73364 })
    for (const [lat, lon] of [
      [60.393, 5.324],
      [63.4305, 10.395],
      [58.97, 5.733],
      [69.6496, 18.956],
    ]) {
      await calls.expectRows('find_addresses_nearby', { lat, lon })
      await calls.expectRows('find_place_names_nearby', { lat, lon })
    }
    expect(calls.uncalled()).toEqual([])
    expect(gateway.errors).toEqual([])
  })
})
