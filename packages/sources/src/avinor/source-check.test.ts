import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { startFakeAvinor } from './testing/fake-avinor.js'
import { avinor } from './index.js'

describe('avinor and the source check of @allmenning/core/testing', () => {
  it('passes the source check: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Avinor, entity search', async () => {
    const fake = await startFakeAvinor()
    try {
      const report = await checkSource(avinor, {
        upstreams: { avinor: fake },
        examples: {
          get_flights: { airport_id: 'OSL', direction: 'departures' },
          lookup_airport: { query: 'Kristian' },
          lookup_airline: { query: 'Norwegian' },
        },
        search: 'Tromsø',
      })
      expect(report.operations).toEqual(['get_flights', 'lookup_airport', 'lookup_airline'])
      expect(report.passed).toContain('lookup_airport: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
