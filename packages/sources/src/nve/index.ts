import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import { nveAvalanche, nveFlood, nveLandslide } from './nve-upstreams.js'
import { hazardWarningsPlaceField } from './place-fields.js'

/**
 * The built-in `nve` source: NVE's flood, landslide and avalanche warnings from Varsom, for a
 * municipality, a county or a point, and in the places bundle's `hazards` section.
 *
 * @example
 * import { nve } from '@allmenning/sources/nve'
 * const gateway = createGateway({ sources: [nve()] })
 * // GET /api/v1/kilder/nve/get_warnings?municipality=4601
 * // GET /api/v1/steder/60.391/5.322?section=hazards
 */
export function nve(): SourceDefinition {
  return defineSource({
    id: 'nve',
    name: 'NVE warnings: flood, landslide and avalanche (Varsom)',
    description:
      "The Norwegian Water Resources and Energy Directorate's warnings from Varsom: flood (Flomvarslingen), landslide " +
      '(Jordskredvarslingen) and avalanche (Snøskredvarslingen) warnings for a municipality, a county or a point, one day at a time.',
    documentation: 'https://api.nve.no/doc/',
    topic: 'hazards',
    keywords: ['flood', 'landslide', 'avalanche', 'warning', 'flom', 'jordskred', 'snøskred', 'skred', 'varsom', 'farevarsel', 'nve'],
    synonyms: ['flomvarsel', 'skredvarsel', 'ras', 'snøskredvarsel', 'jordskredvarsel', 'naturfare', 'natural hazard', 'snow avalanche', 'mudslide', 'oversvømmelse'],
    contentLanguages: ['en', 'no'],
    cacheTtlSeconds: 900,
    // Kartverket's address register tells which municipality a point lies in.
    upstreams: [nveFlood, nveLandslide, nveAvalanche, kartverketAdresser],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      [{ name: 'get_warnings', placeField: hazardWarningsPlaceField }],
      async () => (await import('./operations.js')).nveOperations,
    ),
  })
}
export { nveAvalanche, nveFlood, nveLandslide } from './nve-upstreams.js'
