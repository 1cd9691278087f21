import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { ais } from './index.js'
import { FAKE_BARENTSWATCH_CLIENT, startFakeBarentswatch } from './testing/fake-barentswatch.js'

describe('ais and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming BarentsWatch', async () => {
    const bw = await startFakeBarentswatch()
    try {
      // With its client credentials, so the token service is part of the check.
      const report = await checkSource(() => ais(FAKE_BARENTSWATCH_CLIENT), {
        upstreams: { barentswatch_id: bw.id, barentswatch_ais: bw.ais },
        examples: { find_vessels_nearby: { lat: 59.905, lon: 10.72, radius_km: 5 } },
      })
      expect(report.operations).toEqual(['find_vessels_nearby'])
      expect(report.passed).toContain('find_vessels_nearby: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await bw.close()
    }
  })
})
