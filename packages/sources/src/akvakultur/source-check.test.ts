import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { akvakultur } from './index.js'
import { startFakeFiskeridirGis, startFakePubAqua } from './testing/fake-fiskeridir.js'

describe('akvakultur and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Fiskeridirektoratet', async () => {
    const [gis, aqua] = await Promise.all([startFakeFiskeridirGis(), startFakePubAqua()])
    try {
      const report = await checkSource(akvakultur, {
        upstreams: { fiskeridir_gis: gis, fiskeridir_aqua: aqua },
        examples: { find_sites_nearby: { lat: 60.37, lon: 5.28, radius_km: 40 } },
      })
      expect(report.operations).toEqual(['find_sites_nearby'])
      expect(report.passed).toContain('find_sites_nearby: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([gis.close(), aqua.close()])
    }
  })
})
