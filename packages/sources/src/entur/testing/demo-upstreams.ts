import { demoUpstreams, type DemoUpstreams } from '@allmenning/core/testing'
import { startFakeEnturMobility } from './fake-entur-mobility.js'
import { startFakeEnturVehicles } from './fake-entur-vehicles.js'
import { startFakeEnturGeocoder, startFakeEnturJourneyPlanner } from './fake-entur.js'

/**
 * Every upstream of the `entur` source played locally for the offline demo
 * (`ALLMENNING_DEMO=1`): departures starting now from any NSR stop place, stop searches that find
 * Oslo's stops whatever the text, vehicles reported in the last seconds around Oslo and Bergen,
 * and shared scooters, bikes and stations in central Oslo and Trondheim.
 *
 * @example
 * const demo = await startDemoUpstreams()
 * createGateway({ sources: [entur()], upstreams: Object.fromEntries(Object.entries(demo.fakes).map(([id, f]) => [id, { baseUrl: f.baseUrl }])) })
 */
export async function startDemoUpstreams(): Promise<DemoUpstreams> {
  const [journeyPlanner, geocoder, vehicles, mobility] = await Promise.all([
    startFakeEnturJourneyPlanner({ demo: true }),
    startFakeEnturGeocoder({ demo: true }),
    startFakeEnturVehicles({ demo: true }),
    startFakeEnturMobility(),
  ])
  return demoUpstreams({
    entur_journey_planner: journeyPlanner,
    entur_geocoder: geocoder,
    entur_vehicles: vehicles,
    entur_mobility: mobility,
  })
}
