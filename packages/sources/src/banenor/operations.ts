import { createEtFeed, type BanenorCredentials } from './et-feed.js'
import { createGetStationBoard } from './get-station-board.js'
import { createFindStationsNearby, createListStations } from './list-stations.js'

/**
 * The operations of one `banenor()` source, in the order of its outline, sharing its one
 * network timetable: loaded when a request first reads them.
 *
 * @example
 * const operations = banenorOperations({ subscriptionKey: 'k' })
 */
export function banenorOperations(credentials: BanenorCredentials = {}) {
  return [createGetStationBoard(createEtFeed(credentials)), createListStations(), createFindStationsNearby()]
}
