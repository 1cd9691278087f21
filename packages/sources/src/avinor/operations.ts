import { createAvinorFeeds } from './feed-client.js'
import { createGetFlights } from './get-flights.js'
import { createLookupAirline, createLookupAirport } from './name-lookup.js'

/**
 * Avinor's operations, in the order of the source's outline: loaded when a request first reads
 * them. They share one memo of the feeds, the one this call creates.
 */
export function avinorOperations() {
  const feeds = createAvinorFeeds()
  return [createGetFlights(feeds), createLookupAirport(feeds), createLookupAirline(feeds)]
}
