import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { anleggsregisteret } from './index.js'
import { startFakeAnleggsregisteret } from './testing/fake-anleggsregisteret.js'

describe('anleggsregisteret and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Anleggsregisteret and Kartverket', async () => {
    const [fake, kommuneinfo] = await Promise.all([startFakeAnleggsregisteret(), startFakeKommuneinfo()])
    const requestBudget = createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
    try {
      const report = await checkSource(() => anleggsregisteret({ requestBudget }), {
        upstreams: { anleggsregisteret: fake, kartverket_kommuneinfo: kommuneinfo },
        examples: {
          find_facilities: [
            { municipality: '0301' },
            { municipality: 'Oslo', status: 'existing' },
            { municipality: 'Bergen', limit: 500 },
          ],
          find_facilities_nearby: [{ lat: 59.912, lon: 10.78, radius_km: 2 }],
          search_facilities: [{ query: 'stadion' }],
          get_facility: { id: '1001' },
        },
        search: 'Jordal Amfi',
      })
      expect(report.operations).toEqual([
        'find_facilities',
        'find_facilities_nearby',
        'search_facilities',
        'get_facility',
      ])
      expect(report.passed).toContain('find_facilities: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([fake.close(), kommuneinfo.close()])
    }
  })
})
