import { createFindHydroStations } from './find-hydro-stations.js'
import { getWarnings } from './get-warnings.js'
import { createHydroStationList } from './hydro-station-list.js'
import { createLatestObservations } from './latest-observations.js'

/**
 * The operations of one `nve()` source with its HydAPI key (or none), keyed as its
 * outline reads them, sharing its station lists and its memo of latest observations: loaded when a request
 * first reads them.
 */
export function nveOperations(hydapiKey: string | undefined) {
  const stations = hydapiKey ? createHydroStationList(hydapiKey) : undefined
  const latest = hydapiKey ? createLatestObservations(hydapiKey) : undefined
  return { getWarnings, findHydroStations: createFindHydroStations(hydapiKey, stations, latest) }
}
