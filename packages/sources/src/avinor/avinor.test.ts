import { loadOperations, outlineOf } from '@allmenning/core/source'
import { overrideUpstreams } from '@allmenning/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { avinorContext, startFakeAvinor, type FakeAvinor } from './testing/fake-avinor.js'
import { avinor } from './index.js'

describe('avinor()', () => {
  it('defines the source against asrv.avinor.no with the three operations', async () => {
    const source = avinor()
    expect(source.id).toBe('avinor')
    expect(source.cacheTtlSeconds).toBe(60)
    expect(source.upstreams).toEqual([
      {
        id: 'avinor',
        name: 'Avinor flight data',
        baseUrl: 'https://asrv.avinor.no',
        publisher: 'Avinor AS',
        maxBodyBytes: 4 * 1024 * 1024,
      },
    ])
    expect(source.entityTypes).toEqual({
      airport: { operation: 'get_flights', parameter: 'airport_id' },
      airline: { operation: 'lookup_airline', parameter: 'query' },
    })
    expect(outlineOf(source.operations).map((operation) => operation.name)).toEqual([
      'get_flights',
      'lookup_airport',
      'lookup_airline',
    ])
    expect((await loadOperations(source)).find((operation) => operation.name === 'get_flights')?.cacheTtlSeconds).toBe(
      60,
    )
  })

  it("takes a base URL and a time limit through the core's upstream overrides", () => {
    const source = overrideUpstreams(avinor(), { avinor: { baseUrl: 'http://127.0.0.1:9', timeoutMs: 1234 } })
    expect(source.upstreams[0]).toEqual({
      id: 'avinor',
      name: 'Avinor flight data',
      baseUrl: 'http://127.0.0.1:9',
      publisher: 'Avinor AS',
      maxBodyBytes: 4 * 1024 * 1024,
      timeoutMs: 1234,
    })
  })

  describe('memo per source instance', () => {
    let fake: FakeAvinor
    beforeEach(async () => {
      fake = await startFakeAvinor()
    })
    afterEach(async () => {
      await fake.close()
    })

    it('shares the feed between its own operations but not with another instance', async () => {
      const params = {
        airport_id: 'OSL',
        hours_back: 1,
        hours_ahead: 7,
        include_codeshare: false,
        max_results: 100,
        limit: 25,
        offset: 0,
      }
      for (const source of [avinor(), avinor()]) {
        const operations = await loadOperations(source)
        const getFlights = operations.find((operation) => operation.name === 'get_flights')
        const lookupAirport = operations.find((operation) => operation.name === 'lookup_airport')
        await getFlights?.run(params, avinorContext(fake.baseUrl))
        await getFlights?.run({ ...params, direction: 'arrivals' }, avinorContext(fake.baseUrl))
        await lookupAirport?.run({ query: 'oslo', limit: 25, offset: 0 }, avinorContext(fake.baseUrl))
      }
      expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(2)
      expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(2)
    })
  })
})
