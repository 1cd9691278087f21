import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { naturbase } from './index.js'
import { startFakeNaturbase } from './testing/fake-naturbase.js'

describe('naturbase and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Miljødirektoratet', async () => {
    const fake = await startFakeNaturbase()
    try {
      const report = await checkSource(() => naturbase(), {
        upstreams: { naturbase_vern: fake },
        search: 'Østensjøvannet',
        examples: {
          find_protected_areas: [
            { lat: 59.91, lon: 10.75 },
            { lat: 59.8859, lon: 10.8247, radius_km: 3, verneform: 'naturreservat', include_geometry: false },
          ],
          get_protected_area: { id: 'VV00000972' },
          search_protected_areas: [{ query: 'naturreservat' }, { query: 'Østensjøvannet' }],
        },
      })
      expect(report.operations).toEqual(['find_protected_areas', 'get_protected_area', 'search_protected_areas'])
      expect(report.passed).toContain('find_protected_areas: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
