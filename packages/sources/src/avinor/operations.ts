import { createAvinorFeeds } from './feed-client.js'
import { createGetFlights } from './get-flights.js'
import { createLookupAirline, createLookupAirport } from './name-lookup.js'

/**
 * Avinor's operations, keyed as the source's outline reads them: loaded when a request first reads
 * them. They share one memo of the feeds, the one this call creates.
 */
export function avinorOperations() {
  const feeds = createAvinorFeeds()
  return {
    getFlights: createGetFlights(feeds),
    lookupAirport: createLookupAirport(feeds),
    lookupAirline: createLookupAirline(feeds),
  }
}
