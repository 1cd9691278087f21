import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { avinorApi } from './avinor-upstream.js'

/**
 * The built-in `avinor` source: arrivals and departures at Norwegian airports (`get_flights`)
 * and airport and airline lookups, from Avinor's public XML feeds. Each call of the factory
 * keeps its own memo of the feeds, so one gateway instance calls Avinor at most once a minute
 * per airport and window, as Avinor asks.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { avinor } from '@allmenning/sources/avinor'
 * const gateway = createGateway({ sources: [avinor()], upstreams: { avinor: { timeoutMs: 5000 } } })
 * // GET /api/v1/kilder/avinor/get_flights?airport_id=OSL&direction=departures
 */
export function avinor(): SourceDefinition {
  return defineSource({
    id: 'avinor',
    name: 'Avinor flight data',
    description:
      'Arrivals and departures at the airports Avinor runs in Norway, with live status, gate, belt and delays, ' +
      'and lookups of airport and airline codes and names.',
    documentation: 'https://partner.avinor.no/en/services/flight-data',
    topic: 'transport',
    keywords: ['flights', 'airports', 'airlines', 'arrivals', 'departures', 'fly', 'flyplass', 'avganger', 'ankomster'],
    synonyms: ['flight status', 'flystatus', 'lufthavn', 'flyselskap', 'flyavganger', 'flyankomster', 'iata'],
    contentLanguages: ['en', 'no'],
    cacheTtlSeconds: 60,
    upstreams: [avinorApi],
    entityTypes: {
      airport: { operation: 'get_flights', parameter: 'airport_id' },
      airline: { operation: 'lookup_airline', parameter: 'query' },
    },
    // Imported when a search first needs it; only a text of three characters (an airport code)
    // loads it to be recognized.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).avinorEntitySearch, {
      mayRecognize: (text) => text.trim().length === 3,
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      { get_flights: 'getFlights', lookup_airport: 'lookupAirport', lookup_airline: 'lookupAirline' },
      async () => (await import('./operations.js')).avinorOperations(),
    ),
  })
}
export { avinorApi } from './avinor-upstream.js'
