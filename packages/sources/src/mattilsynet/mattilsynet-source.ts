// The source apart from index.ts, which also exports the geocoding step: the built-in sources
// import this file, so a bundle of them does not carry the step with it.

import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { mattilsynetDatasets } from './mattilsynet-datasets.js'
import { ESTABLISHMENT_ENTITY } from './establishment-entity.js'
import { mattilsynetData } from './mattilsynet-upstream.js'
import { foodInspectionsPlaceField } from './place-fields.js'

/** Options of {@link mattilsynet}. */
export interface MattilsynetOptions {
  /** The clock that decides "today" for `since`; now by default. */
  now?: () => Date
}

/**
 * The built-in `mattilsynet` source: Mattilsynet's food-safety inspections (smilefjes) of
 * restaurants, cafés, shops and other places serving food, with the grade of each
 * establishment's latest inspection and its earlier ones, placed on the map at their
 * addresses. It answers from two datasets: Mattilsynet's daily file (`mattilsynet_smilefjes`,
 * `npx allmenning datasets sync`) and the establishments' addresses placed by Kartverket
 * (`mattilsynet_adressepunkter`, made by `geocodeEstablishmentAddresses`).
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { mattilsynet } from '@allmenning/sources/mattilsynet'
 * import { createSqliteDatasetStore } from '@allmenning/datasets'
 * const datasets = createSqliteDatasetStore({ path: 'data/allmenning.sqlite', readonly: true })
 * const gateway = createGateway({ sources: [mattilsynet()], datasets })
 * // GET /api/v1/kilder/mattilsynet/search_establishments?poststed=Oslo&min_karakter=0&limit=100
 */
export function mattilsynet(options: MattilsynetOptions = {}): SourceDefinition {
  const now = options.now ?? (() => new Date())
  return defineSource({
    id: 'mattilsynet',
    name: 'Mattilsynet: food inspections (smilefjes)',
    description:
      "Mattilsynet's food-safety inspections of restaurants, cafés, shops and other places serving food since 2016: the smiley " +
      'grade (smilefjes) of each inspection in all and for four themes, by establishment, address, postal place and ' +
      "municipality, placed on the map through Kartverket's address register.",
    documentation: 'https://data.norge.no/datasets/288aa74c-e3d3-492e-9ede-e71503b3bfd9',
    topic: 'community',
    keywords: [
      'smilefjes',
      'mattilsynet',
      'mattilsyn',
      'tilsyn',
      'food inspection',
      'restaurant',
      'kafé',
      'spisested',
      'hygiene',
      'karakter',
    ],
    synonyms: [
      'smiley',
      'food safety',
      'hygiene rating',
      'restaurant inspection',
      'mattrygghet',
      'serveringssted',
      'matservering',
      'cafe',
      'butikk',
    ],
    contentLanguages: ['no', 'nn'],
    cacheTtlSeconds: 6 * 3600,
    limit: { default: 100, max: 1000 },
    upstreams: [mattilsynetData],
    datasets: mattilsynetDatasets,
    entityTypes: { [ESTABLISHMENT_ENTITY]: { operation: 'search_establishments', parameter: 'query' } },
    // Imported when a search first needs it (it recognizes nothing by its shape).
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).mattilsynetEntitySearch),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        search_establishments: 'searchEstablishments',
        find_establishments_nearby: { operation: 'findEstablishmentsNearby', placeField: foodInspectionsPlaceField },
      },
      async () => (await import('./operations.js')).mattilsynetOperations(now),
    ),
  })
}
