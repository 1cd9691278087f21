import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { weather } from './index.js'
import { startFakeKartverketTide } from './testing/fake-kartverket-tide.js'
import { startFakeMetLocationforecast } from './testing/fake-met-locationforecast.js'

describe('weather and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming MET and Kartverket', async () => {
    const [met, tide] = await Promise.all([startFakeMetLocationforecast(), startFakeKartverketTide()])
    try {
      const oslo = { lat: 59.9139, lon: 10.7522 }
      const report = await checkSource(weather, {
        upstreams: { met_locationforecast: met, kartverket_tide: tide },
        examples: {
          get_current_weather: oslo,
          get_forecast: oslo,
          get_tide_forecast: [oslo, { lat: 60.398, lon: 5.32, hours: 12, datum: 'msl' }],
          get_tide_table: [oslo, { lat: 69.647, lon: 18.955, days: 7, datum: 'nn2000' }],
        },
      })
      expect(report.operations).toEqual(['get_current_weather', 'get_forecast', 'get_tide_forecast', 'get_tide_table'])
      expect(report.passed).toContain(
        'get_forecast: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      )
      expect(report.passed).toContain(
        'get_tide_table: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      )
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([met.close(), tide.close()])
    }
  })
})
