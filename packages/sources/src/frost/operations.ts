import type { RequestBudget } from '../shared/request-budget.js'
import { createFindStations } from './find-stations.js'
import { createFindStationsNearby } from './find-stations-nearby.js'
import { createGetLatestObservations } from './get-latest-observations.js'
import type { StationList } from './station-list.js'

/** The operations of one `frost()` source with its client id (or none), keyed as its outline reads them: loaded when a request first reads them. */
export function frostOperations(
  clientId: string | undefined,
  stations: StationList | undefined,
  budget: RequestBudget,
) {
  return {
    findStations: createFindStations(clientId, stations, budget),
    getLatestObservations: createGetLatestObservations(clientId, stations, budget),
    findStationsNearby: createFindStationsNearby(clientId, stations, budget),
  }
}
