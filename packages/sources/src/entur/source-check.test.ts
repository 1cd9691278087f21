import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { entur } from './index.js'
import {
  startFakeEnturGeocoder,
  startFakeEnturJourneyPlanner,
  startFakeEnturMobility,
  startFakeEnturVehicles,
} from './testing/index.js'

describe('entur and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Entur, entity search', async () => {
    const [journeyPlanner, geocoder, vehicles, mobility] = await Promise.all([
      startFakeEnturJourneyPlanner(),
      startFakeEnturGeocoder(),
      startFakeEnturVehicles(),
      startFakeEnturMobility(),
    ])
    try {
      const report = await checkSource(entur, {
        upstreams: {
          entur_journey_planner: journeyPlanner,
          entur_geocoder: geocoder,
          entur_vehicles: vehicles,
          entur_mobility: mobility,
        },
        examples: {
          search_stops: { query: 'Kaiparken' },
          get_departures: { stop_place_id: 'NSR:StopPlace:90101', number_of_departures: 5 },
          find_stops_nearby: { lat: 59.9071, lon: 10.7493 },
          find_live_vehicles_nearby: [
            { lat: 59.911, lon: 10.75, radius_km: 1 },
            { lat: 60.391, lon: 5.327, radius_km: 2, mode: 'TRAM' },
          ],
          find_shared_mobility_nearby: [
            { lat: 59.91, lon: 10.75, radius_m: 500 },
            { lat: 63.431, lon: 10.396, radius_m: 1000, form_factor: 'BICYCLE' },
          ],
        },
        search: 'Kaiparken',
      })
      expect(report.operations).toEqual([
        'search_stops',
        'get_departures',
        'find_stops_nearby',
        'find_live_vehicles_nearby',
        'find_shared_mobility_nearby',
      ])
      expect(report.passed).toContain(
        'get_departures: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      )
      expect(report.passed).toContain(
        'find_live_vehicles_nearby: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      )
      expect(report.passed).toContain(
        'find_shared_mobility_nearby: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      )
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([journeyPlanner.close(), geocoder.close(), vehicles.close(), mobility.close()])
    }
  })
})
