import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { statnettApi } from './statnett-upstream.js'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import { priceAreaPlaceField } from './place-fields.js'
import { hasDigit } from '../shared/has-digit.js'

/**
 * The grid-operator source: live operational data from Statnett's driftsdata API.
 *
 * @example
 * createGateway({ sources: [statnett()], upstreams: { statnett: { timeoutMs: 5000 } } })
 */
export function statnett(): SourceDefinition {
  return defineSource({
    id: 'statnett',
    name: 'Statnett driftsdata',
    description:
      'Live operational data from Statnett, the Norwegian transmission system operator: physical flow between price areas, Nordic production and consumption, and the power situation per Norwegian price area.',
    documentation: 'https://www.statnett.no/en/for-stakeholders-in-the-power-industry/data-from-the-power-system/',
    topic: 'energy',
    keywords: [
      'power',
      'electricity',
      'grid',
      'strøm',
      'kraft',
      'kraftflyt',
      'produksjon',
      'forbruk',
      'kraftsituasjonen',
      'price area',
      'prisområde',
      'interconnector',
    ],
    synonyms: [
      'energi',
      'energy',
      'strømnett',
      'elektrisitet',
      'transmission',
      'sentralnettet',
      'power flow',
      'physical flow',
      'power situation',
      'consumption',
      'production',
      'driftsdata',
      'kraftnett',
      'electricity grid',
    ],
    contentLanguages: ['en', 'no'],
    cacheTtlSeconds: 300,
    limit: { default: 25, max: 100 },
    // Kartverket's address register tells which county, and so which price area, a point lies in.
    upstreams: [statnettApi, kartverketAdresser],
    entityTypes: { price_area: { operation: 'get_physical_flow', parameter: 'area' } },
    // Imported when a search first needs it; only a text with a digit (`NO2`) loads it to be
    // recognized.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).statnettEntitySearch, {
      mayRecognize: hasDigit,
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        get_physical_flow: 'getPhysicalFlow',
        get_production_consumption: 'getProductionConsumption',
        get_power_situation: 'getPowerSituation',
        get_price_area: { operation: 'getPriceArea', placeField: priceAreaPlaceField },
      },
      async () => (await import('./operations.js')).statnettOperations,
    ),
  })
}
export { statnettApi } from './statnett-upstream.js'
