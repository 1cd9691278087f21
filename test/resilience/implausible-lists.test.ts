import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway } from '@allmenning/core/testing'
import { avinor } from '@allmenning/sources'
import { startFakeAvinor, type FakeAvinor } from '@allmenning/sources/avinor/testing'

let fake: FakeAvinor
beforeAll(async () => {
  fake = await startFakeAvinor()
})
afterAll(() => fake.close())

const lists = ['/airportNames/v1.0', '/airlineNames/v1.0', '/flightStatuses/v1.0'] as const
const realNow = Date.now
afterEach(() => {
  Date.now = realNow
  for (const path of lists) fake.misbehave(path, 'ok')
})

describe('an empty reference list does not poison the gateway', () => {
  it('answers a 502 naming Avinor that nobody caches, not a day of 404s and empty lookups, and recovers a minute later', async () => {
    const gateway = createTestGateway({ sources: avinor(), upstreams: { avinor: fake } })
    for (const path of lists) fake.misbehave(path, 'empty-list')

    const lookup = await gateway.call('avinor', 'lookup_airport', { query: 'oslo' })
    expect(lookup.status).toBe(502)
    expect(lookup.headers['cache-control']).toBe('no-store')
    expect(lookup.json.error).toMatchObject({ status: 502, code: 'upstream_invalid_response' })
    expect(lookup.json.error.message).toMatch(
      /^Upstream Avinor flight data \(avinor\) sent an implausible airport-name list \(0 items/,
    )

    // The flights are still there; only their names are missing, and no airport is called unknown.
    const flights = await gateway.call('avinor', 'get_flights', { airport_id: 'OSL' })
    expect(flights.status).toBe(200)
    expect(flights.headers['cache-control']).toBe('public, max-age=60')
    expect(flights.json.data.flights.length).toBeGreaterThan(0)
    expect(flights.json.data.flights[0]).toMatchObject({ airport_name: null, airline_name: null })

    // Avinor is asked again once the retry interval and the 60 s answer are over.
    for (const path of lists) fake.misbehave(path, 'ok')
    const later = realNow() + 61_000
    Date.now = () => later
    const again = await gateway.call('avinor', 'lookup_airport', { query: 'oslo' })
    expect(again.status).toBe(200)
    expect(again.json.data).toContainEqual({ code: 'OSL', name: 'Oslo' })
    const named = await gateway.call('avinor', 'get_flights', { airport_id: 'OSL' })
    expect(named.json.data.flights[0].airport_name).not.toBeNull()
    expect(gateway.errors).toEqual([])
  })
})
