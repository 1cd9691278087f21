import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import {
  BARENTSWATCH_CLIENT_ID_VARIABLE,
  BARENTSWATCH_CLIENT_SECRET_VARIABLE,
  barentswatchAis,
  barentswatchId,
} from './barentswatch-upstreams.js'
import { vesselsPlaceField } from './place-fields.js'

/** Options of the {@link ais} source: a BarentsWatch API client with scope `ais`. */
export interface AisOptions {
  /** The client id, e.g. `user@example.com:myclient` (create one at barentswatch.no/minside). */
  clientId?: string
  clientSecret?: string
}

/**
 * The built-in `ais` source: vessels near a point, from Kystverket's open AIS through
 * BarentsWatch. `builtInSources(env)` passes `ALLMENNING_BARENTSWATCH_CLIENT_ID` and
 * `ALLMENNING_BARENTSWATCH_CLIENT_SECRET`. Each call of the factory keeps its own token and
 * position snapshot.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { ais } from '@allmenning/sources/ais'
 * const gateway = createGateway({ sources: [ais({ clientId: process.env.BW_ID, clientSecret: process.env.BW_SECRET })] })
 * // GET /api/v1/kilder/ais/find_vessels_nearby?lat=60.39&lon=5.32&radius_km=10
 */
export function ais(options: AisOptions = {}): SourceDefinition {
  const clientId = options.clientId?.trim()
  const clientSecret = options.clientSecret?.trim()
  const client = clientId && clientSecret ? { clientId, clientSecret } : undefined
  return defineSource({
    id: 'ais',
    name: 'AIS vessel positions (Kystverket via BarentsWatch)',
    description:
      "Live positions of vessels in Norwegian waters from Kystverket's open AIS data, served by BarentsWatch: name, call sign, type, speed, course and destination, searchable by distance from a point. Needs a BarentsWatch API client.",
    documentation: 'https://live.ais.barentswatch.net/index.html',
    topic: 'maritime',
    keywords: ['AIS', 'vessels', 'ships', 'fartøy', 'skip', 'båter', 'kystverket', 'barentswatch'],
    synonyms: [
      'ship tracking',
      'vessel positions',
      'skipstrafikk',
      'ferger',
      'ferries',
      'MMSI',
      'maritime traffic',
      'sjøtrafikk',
    ],
    contentLanguages: ['no', 'en'],
    cacheTtlSeconds: 60,
    limit: { default: 25, max: 100 },
    upstreams: [barentswatchAis, barentswatchId],
    notConfigured: [
      ...(clientId ? [] : [{ configure: BARENTSWATCH_CLIENT_ID_VARIABLE }]),
      ...(clientSecret ? [] : [{ configure: BARENTSWATCH_CLIENT_SECRET_VARIABLE }]),
    ],
    relatedSources: [{ id: 'kystdatahuset', reason: 'Ports and quays near the same point' }],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      { find_vessels_nearby: { operation: 'findVesselsNearby', placeField: vesselsPlaceField } },
      async () => (await import('./operations.js')).aisOperations(client),
    ),
  })
}
export {
  barentswatchAis,
  barentswatchId,
  BARENTSWATCH_CLIENT_ID_VARIABLE,
  BARENTSWATCH_CLIENT_SECRET_VARIABLE,
} from './barentswatch-upstreams.js'
