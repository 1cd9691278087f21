import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { poiNorge } from './index.js'
import { startFakeOverpass } from './testing/fake-overpass.js'

describe('poi_norge and the source check of @allmenning/core/testing', () => {
  it('passes for both operations: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Overpass', async () => {
    const fake = await startFakeOverpass()
    try {
      const report = await checkSource(poiNorge, {
        upstreams: { overpass: fake },
        examples: {
          search_poi: [
            { lat: 59.911, lon: 10.745, radius_km: 2 },
            { lat: 59.9139, lon: 10.7522, radius_km: 2, category: 'bicycle_parking' },
          ],
        },
      })
      expect(report.operations).toEqual(['search_poi', 'list_categories'])
      expect(report.passed).toContain('search_poi: limit and offset page the list')
      expect(report.passed).toContain('list_categories: limit and offset page the list')
      // list_categories reads a table of the source: there is no upstream to fail.
      expect(report.notes).toEqual([
        'list_categories: answers without calling an upstream, so upstream failures do not reach it',
      ])
    } finally {
      await fake.close()
    }
  })
})
