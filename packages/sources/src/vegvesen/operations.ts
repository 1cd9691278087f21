import { createFindRegistrationPointsByRoad, createFindRegistrationPointsNearby, createSearchRegistrationPoints } from './find-registration-points.js'
import { createFindTrafficPoints } from './find-traffic-points.js'
import { createGetTrafficVolume } from './get-traffic-volume.js'
import { createRegistrationPointList } from './registration-points.js'

/**
 * The operations of one `vegvesen()` source, in the order of its outline, sharing its memo of
 * the point list: loaded when a request first reads them.
 */
export function vegvesenOperations() {
  const list = createRegistrationPointList()
  return [
    createFindRegistrationPointsNearby(list),
    createFindRegistrationPointsByRoad(list),
    createSearchRegistrationPoints(list),
    createGetTrafficVolume(list),
    createFindTrafficPoints(list),
  ]
}
