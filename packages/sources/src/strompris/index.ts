import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import { hvakosterstrommen } from './hvakosterstrommen-upstream.js'
import { electricityPricePlaceField } from './place-fields.js'
import { hasDigit } from '../shared/has-digit.js'

/**
 * The built-in `strompris` source: Norway's day-ahead electricity spot prices per price area
 * (NO1–NO5), hourly or quarter-hourly, from hvakosterstrommen.no's static files, in NOK per kWh
 * excluding VAT. Each published day is fetched once and kept; a day not yet published is a 404.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { strompris } from '@allmenning/sources/strompris'
 * const gateway = createGateway({ sources: [strompris()] })
 * // GET /api/v1/kilder/strompris/get_prices?area=NO1&date=2026-11-25
 */
export function strompris(): SourceDefinition {
  return defineSource({
    id: 'strompris',
    name: 'Electricity spot prices (hvakosterstrommen.no)',
    description:
      'Day-ahead electricity spot prices in the five Norwegian price areas (NO1–NO5), per hour and since October 2025 per ' +
      'quarter-hour, in NOK per kWh excluding VAT, from hvakosterstrommen.no; and today’s prices where a point lies.',
    documentation: 'https://www.hvakosterstrommen.no/strompris-api',
    topic: 'energy',
    keywords: [
      'electricity price',
      'strømpris',
      'spot price',
      'spotpris',
      'price area',
      'prisområde',
      'NOK/kWh',
      'energy',
    ],
    synonyms: [
      'strøm',
      'strømpriser',
      'kraftpris',
      'elpris',
      'nord pool',
      'day-ahead',
      'hva koster strømmen',
      'power price',
      'electricity',
    ],
    contentLanguages: ['en'],
    cacheTtlSeconds: 900,
    // Kartverket's address register tells which county, and so which price area, a point lies in.
    upstreams: [hvakosterstrommen, kartverketAdresser],
    // A price area is an entity: found by code or name, linked to its prices.
    entityTypes: { price_area: { operation: 'get_prices', parameter: 'area' } },
    // Imported when a search first needs it; only a text with a digit (`NO5`) loads it to be
    // recognized.
    entitySearch: deferEntitySearch(async () => (await import('./price-area-search.js')).priceAreaSearch, {
      mayRecognize: hasDigit,
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        get_prices: 'getPrices',
        get_price_range: 'getPriceRange',
        get_prices_at_point: { operation: 'getPricesAtPoint', placeField: electricityPricePlaceField },
      },
      async () => (await import('./operations.js')).stromprisOperations(),
    ),
  })
}
export { hvakosterstrommen } from './hvakosterstrommen-upstream.js'
