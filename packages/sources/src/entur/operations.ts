import type { EnturAccess } from './entur-calls.js'
import { createFindLiveVehiclesNearby } from './find-live-vehicles-nearby.js'
import { createFindSharedMobilityNearby } from './find-shared-mobility-nearby.js'
import { createFindStopsNearby } from './find-stops-nearby.js'
import { createGetDepartures } from './get-departures.js'
import { createSearchStops } from './search-stops.js'

/** The operations of one `entur()` source, keyed as its outline reads them: loaded when a request first reads them. */
export function enturOperations(access: EnturAccess) {
  return {
    searchStops: createSearchStops(access),
    getDepartures: createGetDepartures(access),
    findStopsNearby: createFindStopsNearby(access),
    findLiveVehiclesNearby: createFindLiveVehiclesNearby(access),
    findSharedMobilityNearby: createFindSharedMobilityNearby(access),
  }
}
