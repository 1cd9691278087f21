import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketAdresser, kartverketStedsnavn } from './kartverket-upstreams.js'
import { addressesPlaceField, placeNamesPlaceField } from './place-fields.js'

/**
 * The built-in `geonorge` source: Norwegian addresses and place names from Kartverket, by
 * text or around a WGS84 point. Every hit carries its latitude and longitude in WGS84, and
 * its entity search feeds `/api/v1/steder/sok` and `/api/v1/sok/alle`.
 *
 * @example
 * import { geonorge } from '@allmenning/sources/geonorge'
 * const gateway = createGateway({ sources: [geonorge()] })
 * // GET /api/v1/kilder/geonorge/search_address?text=Karl%20Johans%20gate%2022
 * // GET /api/v1/kilder/geonorge/find_place_names_nearby?lat=59.9112&lon=10.7339
 */
export function geonorge(): SourceDefinition {
  return defineSource({
    id: 'geonorge',
    name: 'Geonorge: addresses and place names (Kartverket)',
    description:
      'Norwegian addresses and place names from Kartverket (the Norwegian Mapping Authority): find an address or a ' +
      'named place by text, or the addresses and place names around a point, each with a WGS84 position.',
    documentation: 'https://ws.geonorge.no/adresser/v1/',
    topic: 'geography',
    keywords: [
      'address',
      'adresse',
      'place name',
      'stedsnavn',
      'geocoding',
      'kart',
      'kartverket',
      'postnummer',
      'kommune',
    ],
    synonyms: [
      'adressesøk',
      'geokoding',
      'reverse geocoding',
      'sted',
      'steder',
      'stadnamn',
      'matrikkel',
      'gatenavn',
      'poststed',
      'location',
      'map',
    ],
    contentLanguages: ['no'],
    // Addresses and names change slowly; a few hours keeps answers fresh enough and Kartverket unburdened.
    cacheTtlSeconds: 6 * 3600,
    upstreams: [kartverketAdresser, kartverketStedsnavn],
    entityTypes: {
      place: { operation: 'search_place_name', parameter: 'place_id' },
      address: { operation: 'search_address', parameter: 'text' },
    },
    // Imported when a search first needs it (it recognizes nothing by its shape).
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).geonorgeEntitySearch),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        search_address: 'searchAddress',
        search_place_name: 'searchPlaceName',
        find_addresses_nearby: { operation: 'findAddressesNearby', placeField: addressesPlaceField },
        find_place_names_nearby: { operation: 'findPlaceNamesNearby', placeField: placeNamesPlaceField },
      },
      async () => (await import('./operations.js')).geonorgeOperations,
    ),
  })
}
export { kartverketAdresser, kartverketStedsnavn } from './kartverket-upstreams.js'
