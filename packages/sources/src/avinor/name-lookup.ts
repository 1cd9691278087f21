import * as v from 'valibot'
import { defineOperation, type UpstreamClient } from '@allmenning/core/source'
import { avinorApi } from './avinor-upstream.js'
import { AVINOR_PATHS, type AvinorFeeds } from './feed-client.js'
import { matchNames } from './match-names.js'

/** What differs between the airport and the airline lookup. */
interface NameLookup {
  /** The entity each hit is: `airport` or `airline`. */
  entity: 'airport' | 'airline'
  /** The name list searched, memoized by the source. */
  list(feeds: AvinorFeeds, client: UpstreamClient): Promise<Map<string, string>>
  path: string
  description: string
  /** How a query finds an entry, shown in the parameter's description. */
  example: string
}

/**
 * One of Avinor's code → name lists searched by code or name: the operation both lookups
 * are made from. Two characters is the shortest IATA code (airlines); a single letter would
 * match most of either list.
 */
function createNameLookup(feeds: AvinorFeeds, lookup: NameLookup) {
  return defineOperation({
    description: lookup.description,
    parameters: {
      query: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(2, 'must be at least 2 characters'),
        v.maxLength(100, 'must be at most 100 characters'),
        v.description(
          `IATA code or (part of) the name, 2–100 characters, any case; Norwegian letters may be typed plainly (${lookup.example})`,
        ),
      ),
    },
    output: v.array(
      v.object({
        code: v.pipe(v.string(), v.description(`IATA ${lookup.entity} code`)),
        name: v.pipe(
          v.string(),
          v.description(`${lookup.entity === 'airport' ? 'Airport' : 'Airline'} name as Avinor writes it`),
        ),
      }),
    ),
    canonicalFieldAliases: { name: ['[].name'] },
    // The list changes a few times a year; the source refreshes it daily in the background.
    cacheTtlSeconds: 3600,
    shapeNote: 'data is a bare list of {code, name}, as clients of the public gateway read it.',

    async run(params, ctx) {
      const client = ctx.upstream(avinorApi)
      const list = await lookup.list(feeds, client)
      return { data: matchNames(list, params.query), sourceApi: client.url(lookup.path) }
    },

    entities: (data) => data.map((entry) => ({ type: lookup.entity, id: entry.code, name: entry.name })),
  })
}

/**
 * `lookup_airport`: Avinor's airport list searched by code or name.
 *
 * @example
 * const { data } = await createLookupAirport(createAvinorFeeds()).run({ query: 'tromso', limit: 25, offset: 0 }, ctx)
 * // data: [{ code: 'TOS', name: 'Tromsø' }]
 */
export const createLookupAirport = (feeds: AvinorFeeds) =>
  createNameLookup(feeds, {
    entity: 'airport',
    list: (f, client) => f.airports(client),
    path: AVINOR_PATHS.airportNames,
    description:
      'An airport’s IATA code by name, or its name by code, from Avinor’s airport list (Norwegian and foreign ' +
      'airports). Case-insensitive and partial; an exact code match comes first, then exact and partial names.',
    example: '"tromso" finds Tromsø, "TOS" finds it by code',
  })

/**
 * `lookup_airline`: Avinor's airline list searched by code or name.
 *
 * @example
 * const { data } = await createLookupAirline(createAvinorFeeds()).run({ query: 'wideroe', limit: 25, offset: 0 }, ctx)
 * // data: [{ code: 'WF', name: 'Widerøe' }]
 */
export const createLookupAirline = (feeds: AvinorFeeds) =>
  createNameLookup(feeds, {
    entity: 'airline',
    list: (f, client) => f.airlines(client),
    path: AVINOR_PATHS.airlineNames,
    description:
      'An airline’s IATA code by name, or its name by code, from Avinor’s airline list. Case-insensitive and ' +
      'partial; an exact code match comes first, then exact and partial names.',
    example: '"wideroe" finds Widerøe, "WF" finds it by code',
  })
