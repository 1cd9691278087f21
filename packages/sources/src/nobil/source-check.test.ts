import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { nobil } from './index.js'
import { FAKE_NOBIL_KEY, startFakeNobil } from './testing/fake-nobil.js'

describe('nobil and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming NOBIL', async () => {
    const fake = await startFakeNobil()
    try {
      // With an API key, as a deployment that has one.
      const report = await checkSource(() => nobil({ apiKey: FAKE_NOBIL_KEY }), {
        upstreams: { nobil: fake },
        examples: { find_charging_stations: { lat: 59.9111, lon: 10.7528, radius_km: 5 } },
      })
      expect(report.operations).toEqual(['find_charging_stations'])
      expect(report.passed).toContain('find_charging_stations: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
