import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { banenor } from './index.js'
import { FAKE_BANENOR_KEY, startFakeBanenor } from './testing/fake-banenor.js'

describe('banenor and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Bane NOR', async () => {
    const fake = await startFakeBanenor()
    try {
      const report = await checkSource(() => banenor({ subscriptionKey: FAKE_BANENOR_KEY }), {
        upstreams: { banenor_siri_et: fake },
        examples: {
          get_station_board: { station_id: 'OSL', minutes_ahead: 60, max_trains: 20 },
          list_stations: { query: 'Oslo' },
          find_stations_nearby: { lat: 59.91, lon: 10.75, radius_km: 5 },
        },
        search: 'Nationaltheatret',
      })
      expect(report.operations).toEqual(['get_station_board', 'list_stations', 'find_stations_nearby'])
      expect(report.passed).toContain('get_station_board: limit and offset page the list')
      // The station operations read the station table in the package: no upstream can fail them.
      expect(report.notes).toEqual([
        'list_stations: answers without calling an upstream, so upstream failures do not reach it',
        'find_stations_nearby: answers without calling an upstream, so upstream failures do not reach it',
      ])
    } finally {
      await fake.close()
    }
  })
})
