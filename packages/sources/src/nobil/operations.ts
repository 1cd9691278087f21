import { createFindChargingStations } from './find-charging-stations.js'

/** The operations of one `nobil()` source with its NOBIL key (or none), in the order of its outline: loaded when a request first reads them. */
export function nobilOperations(apiKey: string | undefined) {
  return [createFindChargingStations(apiKey)]
}
