import {
  createTimedMemo,
  listSizeCheck,
  UpstreamError,
  type QueryValues,
  type UpstreamClient,
} from '@allmenning/core/source'
import { avinorApi } from './avinor-upstream.js'
import type { FeedDocument } from './parse-flights.js'
import type { StatusText } from './parse-name-lists.js'
import { InvalidFeedError } from './xml-document.js'

/**
 * The asrv.avinor.no feed paths. They are case-sensitive: a wrong-case URL fails.
 *
 * @example
 * client.url(AVINOR_PATHS.airportNames) // 'https://asrv.avinor.no/airportNames/v1.0'
 */
export const AVINOR_PATHS = {
  flights: '/XmlFeed/v1.0',
  airportNames: '/airportNames/v1.0',
  airlineNames: '/airlineNames/v1.0',
  flightStatuses: '/flightStatuses/v1.0',
} as const

/** One airport and time window of the XmlFeed, in hours back and ahead of the current hour. */
export interface FlightWindow {
  airport: string
  hoursBack: number
  hoursAhead: number
}

/** Memoized access to the four Avinor feeds, shared by the operations of one `avinor()` source. */
export interface AvinorFeeds {
  /**
   * Both directions of one airport and window, with codeshares. Fetched at most once a minute
   * per airport and window; operations filter this copy instead of asking Avinor again.
   */
  flights(client: UpstreamClient, window: FlightWindow): Promise<FeedDocument>
  /** The XmlFeed URL `flights` calls, for provenance (a memoized answer records no call). */
  flightsUrl(client: UpstreamClient, window: FlightWindow): string
  /** IATA code → airport name. */
  airports(client: UpstreamClient): Promise<Map<string, string>>
  /** IATA code → airline name. */
  airlines(client: UpstreamClient): Promise<Map<string, string>>
  /** Status code → English and Norwegian text. */
  statuses(client: UpstreamClient): Promise<Map<string, StatusText>>
  /** The airport names already loaded, without loading them (for entity extraction). */
  knownAirports(): Map<string, string> | undefined
  /** The airline names already loaded, without loading them. */
  knownAirlines(): Map<string, string> | undefined
}

/** Avinor asks users to cache; the gateway calls the feed at most once a minute per airport and window. */
const FLIGHTS_TTL_MS = 60_000
const DAY_MS = 86_400_000
/** The name and status lists change a few times a year. */
const LISTS_TTL_MS = DAY_MS
/** How long an old list may still be served while a refresh is failing. */
const LISTS_STALE_MS = 7 * DAY_MS
/** After a failed or implausible list load, wait this long before asking again. */
const LISTS_ERROR_TTL_MS = 60_000

/**
 * Fewest entries a real list has. The airport list names some 1 950 airports worldwide, and one
 * of fewer than 40 cannot even name Avinor's own 43; the airline list has some 720 airlines;
 * the XmlFeed uses five status codes (N, E, D, A, C). Below these, or below half of the last
 * good list, an answer was cut short: kept, it would make every airport unknown for a day.
 */
const MINIMUM_ENTRIES = { airports: 40, airlines: 20, statuses: 3 } as const

const listCheck = (what: string, minimum: number) =>
  listSizeCheck<Map<string, unknown>>({ upstream: avinorApi, what, minimum, count: (list) => list.size })

function flightsQuery(window: FlightWindow): QueryValues {
  // Always both directions and codeshares, so one cached answer serves every variant of a call.
  return { airport: window.airport, TimeFrom: window.hoursBack, TimeTo: window.hoursAhead, codeshare: 'Y' }
}

// The readers (and saxes, the XML parser under them) are imported with the first answer that
// needs them, not with the source: a cold start that never calls Avinor neither parses nor
// evaluates them.
const readFlights = async (body: string) => (await import('./parse-flights-in-slices.js')).parseFlightsInSlices(body)
const readAirports = async (body: string) =>
  (await import('./parse-name-lists-in-slices.js')).parseAirportNamesInSlices(body)
const readAirlines = async (body: string) =>
  (await import('./parse-name-lists-in-slices.js')).parseAirlineNamesInSlices(body)
const readStatuses = async (body: string) =>
  (await import('./parse-name-lists-in-slices.js')).parseFlightStatusesInSlices(body)

async function fetchParsed<T>(
  client: UpstreamClient,
  path: string,
  parse: (body: string) => T | Promise<T>,
  query?: QueryValues,
) {
  // The feeds are ISO-8859-1 whatever the Content-Type header claims.
  const response = await client.getText(path, { ...(query ? { query } : {}), encoding: 'latin1' })
  try {
    return await parse(response.body)
  } catch (error) {
    if (error instanceof InvalidFeedError) {
      throw new UpstreamError({ id: client.id, name: client.name }, 'invalid_response', error.reason)
    }
    throw error
  }
}

/**
 * Creates the memoized feed access of one source instance: the XmlFeed is memoized for 60 s
 * per (airport, hours back, hours ahead), failures included, so however many clients ask and
 * whatever else they vary, Avinor sees at most one call per minute and window; the name and
 * status lists stay fresh for 24 hours and are then refreshed in the background. An empty or
 * cut-down list is never kept: the last good one goes on serving, and it is asked for again a
 * minute later.
 *
 * @example
 * const feeds = createAvinorFeeds()
 * const feed = await feeds.flights(ctx.upstream(avinorApi), { airport: 'OSL', hoursBack: 1, hoursAhead: 7 })
 */
export function createAvinorFeeds(options: { now?: () => number } = {}): AvinorFeeds {
  const clock = options.now ? { now: options.now } : {}
  const flights = createTimedMemo<FeedDocument>({
    ttlMs: FLIGHTS_TTL_MS,
    errorTtlMs: FLIGHTS_TTL_MS,
    // 50-odd Avinor airports times the windows in use; the bound only guards against abuse.
    maxEntries: 500,
    ...clock,
  })
  const listOptions = {
    ttlMs: LISTS_TTL_MS,
    staleMs: LISTS_STALE_MS,
    errorTtlMs: LISTS_ERROR_TTL_MS,
    maxEntries: 1,
    ...clock,
  }
  const airports = createTimedMemo<Map<string, string>>({
    ...listOptions,
    plausible: listCheck('airport-name list', MINIMUM_ENTRIES.airports),
  })
  const airlines = createTimedMemo<Map<string, string>>({
    ...listOptions,
    plausible: listCheck('airline-name list', MINIMUM_ENTRIES.airlines),
  })
  const statuses = createTimedMemo<Map<string, StatusText>>({
    ...listOptions,
    plausible: listCheck('flight-status list', MINIMUM_ENTRIES.statuses),
  })

  return {
    flights: (client, window) =>
      flights.get(`${window.airport}|${window.hoursBack}|${window.hoursAhead}`, () =>
        fetchParsed(client, AVINOR_PATHS.flights, readFlights, flightsQuery(window)),
      ),
    flightsUrl: (client, window) => client.url(AVINOR_PATHS.flights, flightsQuery(window)),
    airports: (client) => airports.get('all', () => fetchParsed(client, AVINOR_PATHS.airportNames, readAirports)),
    airlines: (client) => airlines.get('all', () => fetchParsed(client, AVINOR_PATHS.airlineNames, readAirlines)),
    statuses: (client) => statuses.get('all', () => fetchParsed(client, AVINOR_PATHS.flightStatuses, readStatuses)),
    knownAirports: () => airports.peek('all'),
    knownAirlines: () => airlines.peek('all'),
  }
}
