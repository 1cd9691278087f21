import { createEtFeed, type BanenorCredentials } from './et-feed.js'
import { createGetStationBoard } from './get-station-board.js'
import { createFindStationsNearby, createListStations } from './list-stations.js'

/**
 * The operations of one `banenor()` source, keyed as its outline reads them, sharing its one
 * network timetable: loaded when a request first reads them.
 *
 * @example
 * const operations = banenorOperations({ subscriptionKey: 'k' })
 */
export function banenorOperations(credentials: BanenorCredentials = {}) {
  return {
    getStationBoard: createGetStationBoard(createEtFeed(credentials)),
    listStations: createListStations(),
    findStationsNearby: createFindStationsNearby(),
  }
}
