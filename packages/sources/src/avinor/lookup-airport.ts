import * as v from 'valibot'
import { defineOperation } from '@allmenning/core'
import { AVINOR_PATHS, type AvinorFeeds } from './feed-client.js'
import { lookupQuery } from './lookup-query.js'
import { matchNames } from './match-names.js'

/**
 * Builds the `lookup_airport` operation: Avinor's airport list searched by code or name.
 *
 * @example
 * const lookupAirport = createLookupAirport(createAvinorFeeds())
 * const { data } = await lookupAirport.run({ query: 'tromso', limit: 25, offset: 0 }, ctx)
 * // data: [{ code: 'TOS', name: 'Tromsø' }]
 */
export function createLookupAirport(feeds: AvinorFeeds) {
  return defineOperation({
    name: 'lookup_airport',
    description:
      'An airport’s IATA code by name, or its name by code, from Avinor’s airport list (Norwegian and foreign ' +
      'airports). Case-insensitive and partial; an exact code match comes first, then exact and partial names.',
    parameters: { query: lookupQuery('"tromso" finds Tromsø, "TOS" finds it by code') },
    output: v.array(
      v.object({
        code: v.pipe(v.string(), v.description('IATA airport code')),
        name: v.pipe(v.string(), v.description('Airport name as Avinor writes it')),
      }),
    ),
    aliases: { name: ['[].name'] },
    // The list changes a few times a year; the source refreshes it daily in the background.
    cacheTtlSeconds: 3600,

    async run(params, ctx) {
      const client = ctx.upstream('avinor')
      const airports = await feeds.airports(client)
      return { data: matchNames(airports, params.query), sourceApi: client.url(AVINOR_PATHS.airportNames) }
    },

    entities(data) {
      return data.map((airport) => ({
        type: 'airport',
        id: airport.code,
        name: airport.name,
        more: { operation: 'get_flights', parameters: { airport_id: airport.code } },
      }))
    },
  })
}
