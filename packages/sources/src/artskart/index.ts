import { deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { artskartApi } from './artskart-upstream.js'
import { speciesObservationsPlaceField } from './place-fields.js'

/** Options of {@link artskart}. */
export interface ArtskartOptions {
  /**
   * The request budget Artskart calls take their turn in. By default one budget of 4 requests
   * a second is shared by every `artskart()` source in the process.
   */
  requestBudget?: RequestBudget
}

/**
 * The built-in `artskart` source: species observations from Artsdatabanken's Artskart in a
 * municipality or around a point, for a span of days, each with a WGS84 position. Municipalities
 * are placed by Kartverket's kommuneinfo (their bounding box, asked of Artskart; the rows of
 * other municipalities in it are left out here).
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { artskart } from '@allmenning/sources/artskart'
 * const gateway = createGateway({ sources: [artskart()] })
 * // GET /api/v1/kilder/artskart/find_observations?municipality=301&from_date=2026-05-01&limit=50
 */
export function artskart(options: ArtskartOptions = {}): SourceDefinition {
  return defineSource({
    id: 'artskart',
    name: 'Artskart: species observations (Artsdatabanken)',
    description:
      "Species observations in Norway from Artsdatabanken's Artskart (Artsobservasjoner, museum collections, surveys): " +
      'what was seen where and when, in a municipality or around a point, with Norwegian and scientific names.',
    documentation: 'https://artsdatabanken.no/Pages/180954',
    topic: 'environment',
    keywords: [
      'species',
      'observations',
      'arter',
      'artsfunn',
      'artskart',
      'artsdatabanken',
      'biodiversity',
      'naturmangfold',
    ],
    synonyms: [
      'artsobservasjoner',
      'fugler',
      'birds',
      'plants',
      'planter',
      'sopp',
      'fungi',
      'insekter',
      'wildlife',
      'dyr',
      'sighting',
      'natur',
    ],
    contentLanguages: ['no', 'la'],
    cacheTtlSeconds: 3600,
    limit: { default: 100, max: 2000 },
    upstreams: [artskartApi, kartverketKommuneinfo],
    relatedSources: [{ id: 'geonorge', reason: 'Municipality numbers and place names' }],
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        find_observations: 'findObservations',
        find_observations_nearby: { operation: 'findObservationsNearby', placeField: speciesObservationsPlaceField },
      },
      async () => (await import('./operations.js')).artskartOperations(options.requestBudget),
    ),
  })
}
export { artskartApi } from './artskart-upstream.js'
export { artskartRequestBudget } from './artskart-budget.js'
export { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
