import { createFindChargingStations } from './find-charging-stations.js'

/** The operations of one `nobil()` source with its NOBIL key (or none), keyed as its outline reads them: loaded when a request first reads them. */
export function nobilOperations(apiKey: string | undefined) {
  return { findChargingStations: createFindChargingStations(apiKey) }
}
