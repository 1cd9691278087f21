import {
  createFindRegistrationPointsByRoad,
  createFindRegistrationPointsNearby,
  createSearchRegistrationPoints,
} from './find-registration-points.js'
import { createFindTrafficPoints } from './find-traffic-points.js'
import { createGetTrafficMessages } from './get-traffic-messages.js'
import { createGetTrafficVolume } from './get-traffic-volume.js'
import { createRegistrationPointList } from './registration-points.js'
import { createSituationFeed, type DatexCredentials } from './situation-feed.js'

/**
 * The operations of one `vegvesen()` source, keyed as its outline reads them, sharing its memo of
 * the point list and of the DATEX situation snapshot: loaded when a request first reads them.
 *
 * @example
 * const operations = vegvesenOperations({ username: 'me', password: 'secret' })
 */
export function vegvesenOperations(datex: Partial<DatexCredentials> = {}) {
  const list = createRegistrationPointList()
  return {
    findRegistrationPointsNearby: createFindRegistrationPointsNearby(list),
    findRegistrationPointsByRoad: createFindRegistrationPointsByRoad(list),
    searchRegistrationPoints: createSearchRegistrationPoints(list),
    getTrafficVolume: createGetTrafficVolume(list),
    findTrafficPoints: createFindTrafficPoints(list),
    getTrafficMessages: createGetTrafficMessages(createSituationFeed(datex)),
  }
}
