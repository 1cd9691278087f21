import { createAccessTokens, type BarentswatchClient } from './access-token.js'
import { createFindVesselsNearby } from './find-vessels-nearby.js'
import { createVesselPositions } from './vessel-positions.js'

/**
 * The operations of one `ais()` source, keyed as its outline reads them, sharing its token and
 * position snapshot (none without a client): loaded when a request first reads them.
 */
export function aisOperations(client: BarentswatchClient | undefined) {
  const positions = client ? createVesselPositions(createAccessTokens(client)) : undefined
  return { findVesselsNearby: createFindVesselsNearby(positions) }
}
