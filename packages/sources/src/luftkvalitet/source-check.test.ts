import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { luftkvalitet } from './index.js'
import { startFakeMetAirquality } from './testing/fake-met-airquality.js'

describe('luftkvalitet and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming MET', async () => {
    const met = await startFakeMetAirquality()
    try {
      const oslo = { lat: 59.9139, lon: 10.7522 }
      const report = await checkSource(luftkvalitet, {
        upstreams: { met_airquality: met },
        examples: {
          get_air_quality_nearby: oslo,
          get_air_quality_forecast: oslo,
          get_station_forecast: { station_id: 'NO0089A' },
        },
      })
      expect(report.operations).toEqual(['get_air_quality_nearby', 'get_air_quality_forecast', 'get_station_forecast'])
      expect(report.passed).toContain('get_air_quality_nearby: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await met.close()
    }
  })
})
