import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { artskart } from './index.js'
import { startFakeArtskart } from './testing/fake-artskart.js'

describe('artskart and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Artskart and Kartverket', async () => {
    const [fake, kommuneinfo] = await Promise.all([startFakeArtskart(), startFakeKommuneinfo()])
    // The check calls in bursts; the default budget (4 a second) would make it slow, not different.
    const requestBudget = createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
    try {
      const report = await checkSource(() => artskart({ requestBudget }), {
        upstreams: { artskart: fake, kartverket_kommuneinfo: kommuneinfo },
        examples: {
          find_observations: [
            { municipality: '301', from_date: '2026-05-01', to_date: '2026-05-07' },
            { municipality: 'Oslo', from_date: '2026-05-01', to_date: '2026-05-07', page_size: 10 },
          ],
          find_observations_nearby: {
            lat: 59.9139,
            lon: 10.7522,
            radius_km: 2,
            from_date: '2026-05-01',
            to_date: '2026-05-07',
          },
        },
      })
      expect(report.operations).toEqual(['find_observations', 'find_observations_nearby'])
      expect(report.passed).toContain('find_observations: limit and offset page the list')
      expect(report.passed).toContain('find_observations_nearby: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([fake.close(), kommuneinfo.close()])
    }
  })
})
