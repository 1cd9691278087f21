import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { utdanning } from './index.js'
import { startFakeNbr, startFakeNsr } from './testing/fake-udir.js'

describe('utdanning and the source check of @allmenning/core/testing', () => {
  it("passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Udir's registers and Kartverket", async () => {
    const [nsr, nbr, kommuneinfo] = await Promise.all([startFakeNsr(), startFakeNbr(), startFakeKommuneinfo()])
    const requestBudget = createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
    try {
      const report = await checkSource(() => utdanning({ requestBudget }), {
        upstreams: { udir_nsr: nsr, udir_nbr: nbr, kartverket_kommuneinfo: kommuneinfo },
        // An organisation number: the name search only knows units listed in this process.
        search: '971200006',
        examples: {
          search_schools: [
            { kommunenr: '0301' },
            { kommunenr: 'Oslo', grunnskole: true },
            { fylkenr: '3', limit: 1000 },
          ],
          search_kindergartens: [{ kommunenr: '301' }, { kommunenr: '0301', privat: true }],
          get_unit: [{ organization_id: '971200006' }, { organization_id: '988300012' }],
          find_schools_nearby: [
            { lat: 59.91, lon: 10.75 },
            { lat: 59.92, lon: 10.74, radius_km: 5 },
          ],
        },
      })
      expect(report.operations).toEqual(['search_schools', 'search_kindergartens', 'get_unit', 'find_schools_nearby'])
      expect(report.passed).toContain('search_schools: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([nsr.close(), nbr.close(), kommuneinfo.close()])
    }
  })
})
