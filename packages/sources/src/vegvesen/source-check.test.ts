import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { vegvesen } from './index.js'
import { startFakeTrafikkdata } from './testing/fake-trafikkdata.js'

describe('vegvesen and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Vegvesen, entity search', async () => {
    const trafikkdata = await startFakeTrafikkdata()
    try {
      const report = await checkSource(vegvesen, {
        upstreams: { vegvesen_trafikkdata: trafikkdata },
        examples: {
          find_registration_points_nearby: { lat: 59.9071, lon: 10.7493 },
          find_registration_points_by_road: { road: 'FV44' },
          search_registration_points: { query: 'Granlia' },
          get_traffic_volume: { registration_point_id: '10234V1110001', from: '2026-11-24', to: '2026-11-25' },
          find_traffic_points: [{ county_number: 3, limit: 100 }, { lat: 60.392, lon: 5.324, radius_km: 5, operational_only: true }],
        },
        search: 'Kaiparken',
      })
      expect(report.operations).toEqual(['find_registration_points_nearby', 'find_registration_points_by_road', 'search_registration_points', 'get_traffic_volume', 'find_traffic_points'])
      expect(report.passed).toContain('get_traffic_volume: when its upstream answers an HTML maintenance page with status 200, a 502 naming it')
      expect(report.notes).toEqual([])
    } finally {
      await trafikkdata.close()
    }
  })
})
