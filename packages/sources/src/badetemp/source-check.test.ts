import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { badetemp } from './index.js'
import { FAKE_YR_BADETEMP_KEY, startFakeYrBadetemperaturer } from './testing/fake-yr-badetemperaturer.js'

describe('badetemp and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Yr', async () => {
    const fake = await startFakeYrBadetemperaturer()
    try {
      const report = await checkSource(() => badetemp({ apiKey: FAKE_YR_BADETEMP_KEY }), {
        upstreams: { yr_badetemperaturer: fake },
        examples: {
          get_nearest_water_temperatures: { lat: 59.91, lon: 10.75 },
          get_water_temperatures: { location_id: '0-10027' },
        },
      })
      expect(report.operations).toEqual(['get_nearest_water_temperatures', 'get_water_temperatures'])
      expect(report.passed).toContain('get_nearest_water_temperatures: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
