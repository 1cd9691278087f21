import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { createRequestBudget } from '../shared/request-budget.js'
import { arkivverket } from './index.js'
import { startFakeDigitalarkivet } from './testing/fake-digitalarkivet.js'

describe('arkivverket and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Digitalarkivet, entity search', async () => {
    const fake = await startFakeDigitalarkivet()
    // The check makes many calls; the crawl-delay budget is tested in arkivverket.test.ts. A window
    // of 1 ms leaves it idle between calls, so the entity search (which asks only an idle budget) is checked too.
    const requestBudget = createRequestBudget({ requests: 1000, perMs: 1, maxWaitMs: 0 })
    try {
      const report = await checkSource(() => arkivverket({ requestBudget }), {
        upstreams: { digitalarkivet: fake },
        examples: {
          search_census_properties: [
            { lat: 59.91, lon: 10.75 },
            // The check asks every example of a place-field operation for a point; name-only searches are tested in arkivverket.test.ts.
            { query: 'Kristiania', lat: 59.91, lon: 10.75, radius_m: 5000, limit: 50 },
            { query: 'Berg*', lat: 59.91, lon: 10.75, radius_m: 5000, include_residents: false },
          ],
          get_census_property: [{ property_id: 'bf01036372000241' }, { property_id: 'gf01036392000103' }],
        },
        search: 'Bryn',
      })
      expect(report.operations).toEqual(['search_census_properties', 'get_census_property'])
      expect(report.passed).toContain('search_census_properties: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
