import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { vegvesen } from './index.js'
import { FAKE_DATEX_PASSWORD, FAKE_DATEX_USERNAME, startFakeDatex } from './testing/fake-datex.js'
import { startFakeTrafikkdata } from './testing/fake-trafikkdata.js'

describe('vegvesen and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Vegvesen, entity search', async () => {
    const [trafikkdata, datex] = await Promise.all([startFakeTrafikkdata(), startFakeDatex()])
    try {
      const report = await checkSource(
        () => vegvesen({ datexUsername: FAKE_DATEX_USERNAME, datexPassword: FAKE_DATEX_PASSWORD }),
        {
          upstreams: { vegvesen_trafikkdata: trafikkdata, vegvesen_datex: datex },
          examples: {
            find_registration_points_nearby: { lat: 59.9071, lon: 10.7493 },
            find_registration_points_by_road: { road: 'FV44' },
            search_registration_points: { query: 'Granlia' },
            get_traffic_volume: { registration_point_id: '10234V1110001', from: '2026-11-24', to: '2026-11-25' },
            find_traffic_points: [
              { county_number: 3, limit: 100 },
              { lat: 60.392, lon: 5.324, radius_km: 5, operational_only: true },
            ],
            get_traffic_messages: [
              { lat: 59.91, lon: 10.75, limit: 100 },
              { lat: 59.91, lon: 10.75, radius_km: 50, include_planned: true },
            ],
          },
          search: 'Kaiparken',
        },
      )
      expect(report.operations).toEqual([
        'find_registration_points_nearby',
        'find_registration_points_by_road',
        'search_registration_points',
        'get_traffic_volume',
        'find_traffic_points',
        'get_traffic_messages',
      ])
      expect(report.passed).toContain(
        'get_traffic_volume: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      )
      expect(report.passed).toContain(
        'get_traffic_messages: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      )
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([trafikkdata.close(), datex.close()])
    }
  })
})
