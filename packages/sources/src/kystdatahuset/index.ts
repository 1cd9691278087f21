import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kystdatahusetApi } from './kystdatahuset-upstream.js'
import { portsPlaceField } from './place-fields.js'

/**
 * The built-in `kystdatahuset` source: quays, ports and anchorages near a point, from
 * Kystverket's open location register. Each call of the factory keeps its own copy of the
 * register, loaded once a day.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { kystdatahuset } from '@allmenning/sources/kystdatahuset'
 * const gateway = createGateway({ sources: [kystdatahuset()] })
 * // GET /api/v1/kilder/kystdatahuset/find_ports_nearby?lat=59.90&lon=10.74&radius_km=5
 */
export function kystdatahuset(): SourceDefinition {
  return defineSource({
    id: 'kystdatahuset',
    name: 'Kystdatahuset (Kystverket)',
    description:
      "Kystverket's open coastal data: the register of quays, ferry quays, port facilities, harbours and anchorages along the Norwegian coast, searchable by distance from a point.",
    documentation: 'https://kystdatahuset.no/artikkel/api-tilgang',
    topic: 'maritime',
    keywords: ['ports', 'quays', 'havner', 'kaier', 'ferjekai', 'havn', 'kystverket', 'anchorage', 'ankringsplass'],
    synonyms: [
      'harbour',
      'harbor',
      'port',
      'quay',
      'ferry quay',
      'kai',
      'havneanlegg',
      'maritime',
      'kyst',
      'coast',
      'locode',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 3600,
    limit: { default: 25, max: 100 },
    upstreams: [kystdatahusetApi],
    relatedSources: [{ id: 'ais', reason: 'Vessels near the same point' }],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      { find_ports_nearby: { operation: 'findPortsNearby', placeField: portsPlaceField } },
      async () => (await import('./operations.js')).kystdatahusetOperations(),
    ),
  })
}
export { kystdatahusetApi } from './kystdatahuset-upstream.js'
