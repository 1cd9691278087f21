import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { frost } from './index.js'
import { FAKE_FROST_CLIENT_ID, startFakeFrost } from './testing/fake-frost.js'

describe('frost and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Frost', async () => {
    const fake = await startFakeFrost()
    try {
      // With a client id, as a deployment that has one; a budget of its own, so the check's bursts are not refused.
      const source = () =>
        frost({
          clientId: FAKE_FROST_CLIENT_ID,
          requestBudget: createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 1000 }),
        })
      const report = await checkSource(source, {
        upstreams: { frost: fake },
        search: 'Blindern',
        examples: {
          find_stations: { municipality: 'Oslo', limit: 100 },
          get_latest_observations: { station_id: 'SN18700' },
          find_stations_nearby: { lat: 59.91, lon: 10.75, radius_km: 10 },
        },
      })
      expect(report.operations).toEqual(['find_stations', 'get_latest_observations', 'find_stations_nearby'])
      expect(report.passed).toContain('find_stations: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
