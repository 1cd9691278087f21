import type { RequestBudget } from '../shared/request-budget.js'
import { createFindStations } from './find-stations.js'
import { createFindStationsNearby } from './find-stations-nearby.js'
import { createGetLatestObservations } from './get-latest-observations.js'
import type { StationList } from './station-list.js'

/** The operations of one `frost()` source with its client id (or none), in the order of its outline: loaded when a request first reads them. */
export function frostOperations(
  clientId: string | undefined,
  stations: StationList | undefined,
  budget: RequestBudget,
) {
  return [
    createFindStations(clientId, stations, budget),
    createGetLatestObservations(clientId, stations, budget),
    createFindStationsNearby(clientId, stations, budget),
  ]
}
