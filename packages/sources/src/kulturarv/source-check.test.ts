import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { kulturarv } from './index.js'
import { FAKE_DIMU_KEY, startFakeDimu } from './testing/fake-dimu.js'
import { startFakeRiksantikvaren } from './testing/fake-riksantikvaren.js'

describe('kulturarv and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Riksantikvaren, DigitaltMuseum and Kartverket', async () => {
    const [riksantikvaren, dimu, kommuneinfo] = await Promise.all([
      startFakeRiksantikvaren(),
      startFakeDimu(),
      startFakeKommuneinfo(),
    ])
    try {
      // With a DigitaltMuseum key, as a deployment that has one.
      const report = await checkSource(() => kulturarv({ dimuApiKey: FAKE_DIMU_KEY }), {
        upstreams: { riksantikvaren, dimu, kartverket_kommuneinfo: kommuneinfo },
        examples: {
          // The place field's operation: the check wants lat and lon in each of its examples; the kommune, art,
          // kind, query and bbox searches are asserted in kulturarv.test.ts.
          search_heritage_sites: [
            { lat: 59.91, lon: 10.75, radius_km: 2 },
            { lat: 59.9075, lon: 10.6853, radius_km: 1, art: 'Museum-galleri', one_per_site: true },
          ],
          search_museum_objects: [
            { query: '*', owner: 'NF' },
            { query: 'Norsk Folkemuseum', limit: 1 },
            { query: '*', owner: 'NF,NMK-B,OB' },
          ],
          list_museums: [{}, { query: 'nasjonalmuseet' }],
        },
        search: 'Vikingskipshuset',
      })
      expect(report.operations).toEqual(['search_heritage_sites', 'search_museum_objects', 'list_museums'])
      expect(report.passed).toContain('search_heritage_sites: limit and offset page the list')
      expect(report.passed).toContain('search_museum_objects: limit and offset page the list')
      expect(report.passed).toContain('list_museums: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([riksantikvaren.close(), dimu.close(), kommuneinfo.close()])
    }
  })
})
