import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { poiNorge } from './index.js'
import { startFakeOverpass } from './testing/fake-overpass.js'

describe('poi_norge and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Overpass', async () => {
    const fake = await startFakeOverpass()
    try {
      const report = await checkSource(poiNorge, { upstreams: { overpass: fake }, examples: { search_poi: { lat: 59.911, lon: 10.745, radius_km: 2 } } })
      expect(report.operations).toEqual(['search_poi'])
      expect(report.passed).toContain('search_poi: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
