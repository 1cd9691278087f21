import * as v from 'valibot'
import { avinorApi } from './avinor-upstream.js'
import { GatewayError } from '@allmenning/core'
import { defineOperation, UpstreamError, type EntityInput, type UpstreamClient } from '@allmenning/core/source'
import type { AvinorFeeds } from './feed-client.js'
import type { FeedFlight } from './parse-flights.js'
import type { StatusText } from './parse-name-lists.js'

/** Values of the `direction` parameter; leaving it out gives both. */
const DIRECTIONS = ['arrivals', 'departures'] as const

const ROUTE_TYPES = { D: 'domestic', S: 'schengen', I: 'international' } as const

/** Avinor's own limits: TimeFrom at most 96 hours back, TimeTo at most 144 hours ahead. */
const MAX_HOURS_BACK = 96
const MAX_HOURS_AHEAD = 144
/** Enough for the busiest window at Oslo; the core pages through it with limit and offset. */
const MAX_RESULTS = 1000

const nullableText = (description: string) => v.nullable(v.pipe(v.string(), v.description(description)))
const utcTime = (description: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(description))

/**
 * One flight in the `get_flights` answer, in the field names the public gateway's clients read
 * (`flight_id`, `airline`, `airport`, `schedule_time`, `status {code, time, text}`, `delayed`,
 * `gate`, `belt`, `area`), with the richer fields this source has beside them.
 */
const flightSchema = v.object({
  flight_id: v.pipe(v.string(), v.description('Flight number, e.g. DY1791')),
  airline: v.pipe(v.string(), v.description('IATA code of the operating airline')),
  airline_name: nullableText('Name of the operating airline from Avinor’s airline list'),
  airport: v.pipe(
    v.string(),
    v.description('IATA code of the other end: the origin of an arrival, the destination of a departure'),
  ),
  airport_name: nullableText('Name of the other airport from Avinor’s airport list'),
  schedule_time: utcTime('Scheduled time at airport_id, ISO 8601 UTC'),
  direction: v.pipe(
    v.picklist(['arrival', 'departure']),
    v.description('Whether the flight arrives at or departs from airport_id'),
  ),
  area: v.nullable(
    v.pipe(
      v.picklist(['domestic', 'schengen', 'international']),
      v.description('Domestic, Schengen or other international flight'),
    ),
  ),
  status: v.optional(
    v.pipe(
      v.object({
        code: v.pipe(
          v.string(),
          v.description('Avinor status: N new info, E new time, D departed, A arrived, C cancelled'),
        ),
        time: v.nullable(utcTime('Time that goes with the status (new, departure or arrival time), ISO 8601 UTC')),
        text: nullableText('The status in English'),
        text_no: nullableText('The status in Norwegian'),
      }),
      v.description('Live status; absent while the flight is simply scheduled'),
    ),
  ),
  delayed: v.pipe(v.boolean(), v.description('Avinor marks the flight as delayed')),
  gate: nullableText('Gate (departures)'),
  belt: nullableText('Baggage belt (arrivals)'),
  check_in: nullableText('Check-in counters or zones (departures), as Avinor lists them'),
  unique_id: nullableText('Avinor’s id of this flight movement (stable across updates)'),
  via_airports: v.array(
    v.object({
      code: v.pipe(v.string(), v.description('IATA code of a stop on the way')),
      name: nullableText('Name of the stop'),
    }),
  ),
  codeshares: v.optional(
    v.array(
      v.object({
        flight_id: v.pipe(v.string(), v.description('The flight number this flight is also sold under')),
        airline: v.pipe(v.string(), v.description('IATA code of the marketing airline')),
        airline_name: nullableText('Name of the marketing airline'),
      }),
    ),
  ),
})

/**
 * One flight as `get_flights` returns it.
 *
 * @example
 * const late = (flights: Flight[]) => flights.filter((flight) => flight.delayed)
 */
export type Flight = v.InferOutput<typeof flightSchema>

/** The name and status lists; empty when Avinor could not give them. */
interface NameLists {
  /** Undefined rather than empty when unavailable, so that no airport is wrongly reported unknown. */
  airports: Map<string, string> | undefined
  airlines: Map<string, string>
  statuses: Map<string, StatusText>
}

/**
 * Loads the lists that turn codes into names. They only enrich the flights, so when Avinor
 * fails to deliver them the flights are still answered, with null names.
 */
async function loadNameLists(feeds: AvinorFeeds, client: UpstreamClient): Promise<NameLists> {
  const settle = <T>(promise: Promise<T>) =>
    promise.then(
      (value) => value,
      (error: unknown) => {
        if (error instanceof UpstreamError) return undefined
        throw error
      },
    )
  const [airports, airlines, statuses] = await Promise.all([
    settle(feeds.airports(client)),
    settle(feeds.airlines(client)),
    settle(feeds.statuses(client)),
  ])
  return { airports, airlines: airlines ?? new Map(), statuses: statuses ?? new Map() }
}

function toFlight(flight: FeedFlight, lists: NameLists, withCodeshares: boolean): Flight {
  const airportName = (code: string) => lists.airports?.get(code) ?? null
  const status = flight.status ? lists.statuses.get(flight.status.code) : undefined
  const result: Flight = {
    flight_id: flight.flightId,
    airline: flight.airline,
    airline_name: lists.airlines.get(flight.airline) ?? null,
    airport: flight.airport,
    airport_name: airportName(flight.airport),
    schedule_time: flight.scheduleTime,
    direction: flight.arrDep === 'A' ? 'arrival' : 'departure',
    area: flight.domInt ? ROUTE_TYPES[flight.domInt] : null,
    delayed: flight.delayed,
    gate: flight.gate,
    belt: flight.belt,
    check_in: flight.checkIn,
    unique_id: flight.uniqueId,
    via_airports: flight.via.map((code) => ({ code, name: airportName(code) })),
  }
  if (flight.status) {
    result.status = {
      code: flight.status.code,
      time: flight.status.time ?? null,
      text: status?.en ?? null,
      text_no: status?.no ?? null,
    }
  }
  if (withCodeshares) {
    result.codeshares = flight.codeshares.map((codeshare) => ({
      flight_id: codeshare.flightId,
      airline: codeshare.airlineCode,
      airline_name: lists.airlines.get(codeshare.airlineCode) ?? codeshare.airlineName,
    }))
  }
  return result
}

/**
 * Builds the `get_flights` operation over the shared, memoized feeds of one source instance.
 *
 * @example
 * const getFlights = createGetFlights(createAvinorFeeds())
 * const { data } = await getFlights.run(
 *   { airport_id: 'OSL', direction: 'departures', hours_back: 1, hours_ahead: 7, include_codeshare: false,
 *     max_results: 100, limit: 25, offset: 0 }, ctx)
 */
export function createGetFlights(feeds: AvinorFeeds) {
  return defineOperation({
    description:
      'Arrivals and departures at one airport in Avinor’s network, with schedule and live status (gate, belt, ' +
      'check-in, delay, new times), in a window of whole hours around now; times are UTC. Avinor is asked at most ' +
      'once a minute per airport and window. An airport_id that is not in Avinor’s airport list is a 404 ' +
      '(entity_not_found); a listed airport Avinor has no flights for (for example a foreign one) gives an empty list.',
    parameters: {
      airport_id: v.pipe(
        v.string(),
        v.trim(),
        v.toUpperCase(),
        v.regex(/^[A-Z]{3,4}$/, 'must be an IATA airport code of 3 or 4 letters, e.g. OSL'),
        v.description('IATA code of the airport, e.g. OSL, BGO or TOS (any case); lookup_airport finds it by name'),
      ),
      direction: v.optional(
        v.pipe(v.picklist(DIRECTIONS), v.description('Only arrivals or only departures; both when left out')),
      ),
      hours_back: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(0),
          v.maxValue(MAX_HOURS_BACK),
          v.description('Whole hours before the current hour to include (Avinor’s TimeFrom, at most 96)'),
        ),
        1,
      ),
      hours_ahead: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(0),
          v.maxValue(MAX_HOURS_AHEAD),
          v.description('Whole hours after the current hour to include (Avinor’s TimeTo, at most 144)'),
        ),
        7,
      ),
      include_codeshare: v.optional(
        v.pipe(v.boolean(), v.description('Add the codeshare flight numbers each flight is also sold under')),
        false,
      ),
      max_results: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(MAX_RESULTS),
          v.description(
            'Most flights kept, earliest first, before paging with limit and offset; _meta.capped says when it cuts',
          ),
        ),
        100,
      ),
    },
    output: v.object({ flights: v.array(flightSchema) }),
    list: 'flights',
    canonicalFieldAliases: {
      name: ['flights[].airline_name', 'flights[].airport_name'],
      timestamp: ['flights[].schedule_time', 'flights[].status.time'],
    },
    shapeNote:
      'data is {flights, has_more_results} with the row fields of the public gateway (flight_id, airline, airport, ' +
      'schedule_time, status {code, time, text}, delayed, gate, belt, area), so its clients work unchanged; names and ' +
      'the Norwegian status text stand beside them.',
    cacheTtlSeconds: 60,

    async run(params, ctx) {
      const client = ctx.upstream(avinorApi)
      const lists = await loadNameLists(feeds, client)
      const airport = params.airport_id
      if (lists.airports && !lists.airports.has(airport)) {
        throw new GatewayError(404, 'entity_not_found', `No airport with IATA code ${airport} in Avinor's airport list`)
      }
      const window = { airport, hoursBack: params.hours_back, hoursAhead: params.hours_ahead }
      const feed = await feeds.flights(client, window)
      const wanted = params.direction === undefined ? undefined : params.direction === 'arrivals' ? 'A' : 'D'
      const inWindow = feed.flights
        .filter((flight) => wanted === undefined || flight.arrDep === wanted)
        // ISO strings of one format sort in time order; sort() is stable, so feed order breaks ties.
        .sort((a, b) => (a.scheduleTime < b.scheduleTime ? -1 : a.scheduleTime > b.scheduleTime ? 1 : 0))
      const kept = inWindow.slice(0, params.max_results)
      const flights = kept.map((flight) => toFlight(flight, lists, params.include_codeshare))
      const rawValues: Record<string, unknown> = { last_update: feed.lastUpdate }
      if (feed.skipped > 0) rawValues['unreadable_flights_skipped'] = feed.skipped
      const result = { data: { flights }, sourceApi: feeds.flightsUrl(client, window), rawValues }
      if (inWindow.length <= params.max_results) return result
      // A client paging with the default max_results would otherwise take the first 100 for all there is.
      const reason =
        `max_results kept the ${params.max_results} earliest of the ${inWindow.length} flights in the window; ` +
        `a larger max_results (at most ${MAX_RESULTS}) or a shorter window gives the rest`
      return { ...result, capped: { cap: params.max_results, reason } }
    },

    entities(data, params) {
      const airports = new Map<string, string | null | undefined>([
        [params.airport_id, feeds.knownAirports()?.get(params.airport_id)],
      ])
      const airlines = new Map<string, string | null>()
      for (const flight of data.flights) {
        if (!airports.has(flight.airport)) airports.set(flight.airport, flight.airport_name)
        for (const via of flight.via_airports) if (!airports.has(via.code)) airports.set(via.code, via.name)
      }
      for (const flight of data.flights)
        if (!airlines.has(flight.airline)) airlines.set(flight.airline, flight.airline_name)
      const entity =
        (type: string) =>
        ([id, name]: [string, string | null | undefined]): EntityInput => ({ type, id, ...(name ? { name } : {}) })
      return [
        ...[...airports].filter(([code]) => code !== '').map(entity('airport')),
        ...[...airlines].filter(([code]) => code !== '').map(entity('airline')),
      ]
    },
  })
}
