import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { firms } from './index.js'
import { FAKE_FIRMS_KEY, startFakeFirms } from './testing/fake-firms.js'

describe('firms and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming NASA FIRMS', async () => {
    const fake = await startFakeFirms()
    try {
      // With a map key, as a deployment that has one.
      const report = await checkSource(() => firms({ mapKey: FAKE_FIRMS_KEY }), {
        upstreams: { firms: fake },
        examples: { find_fire_detections: { lat: 58.334, lon: 6.299, radius_km: 30 } },
      })
      expect(report.operations).toEqual(['find_fire_detections'])
      expect(report.passed).toContain('find_fire_detections: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
