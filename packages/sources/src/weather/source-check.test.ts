import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { weather } from './index.js'
import { startFakeMetLocationforecast } from './testing/fake-met-locationforecast.js'

describe('weather and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming MET', async () => {
    const met = await startFakeMetLocationforecast()
    try {
      const oslo = { lat: 59.9139, lon: 10.7522 }
      const report = await checkSource(weather, { upstreams: { met_locationforecast: met }, examples: { get_current_weather: oslo, get_forecast: oslo } })
      expect(report.operations).toEqual(['get_current_weather', 'get_forecast'])
      expect(report.passed).toContain('get_forecast: when its upstream answers an HTML maintenance page with status 200, a 502 naming it')
      expect(report.notes).toEqual([])
    } finally {
      await met.close()
    }
  })
})
