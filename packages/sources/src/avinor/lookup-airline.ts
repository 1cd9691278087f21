import * as v from 'valibot'
import { defineOperation } from '@allmenning/core'
import { AVINOR_PATHS, type AvinorFeeds } from './feed-client.js'
import { lookupQuery } from './lookup-query.js'
import { matchNames } from './match-names.js'

/**
 * Builds the `lookup_airline` operation: Avinor's airline list searched by code or name.
 *
 * @example
 * const lookupAirline = createLookupAirline(createAvinorFeeds())
 * const { data } = await lookupAirline.run({ query: 'wideroe', limit: 25, offset: 0 }, ctx)
 * // data: [{ code: 'WF', name: 'Widerøe' }]
 */
export function createLookupAirline(feeds: AvinorFeeds) {
  return defineOperation({
    name: 'lookup_airline',
    description:
      'An airline’s IATA code by name, or its name by code, from Avinor’s airline list. Case-insensitive and ' +
      'partial; an exact code match comes first, then exact and partial names.',
    parameters: { query: lookupQuery('"wideroe" finds Widerøe, "WF" finds it by code') },
    output: v.array(
      v.object({
        code: v.pipe(v.string(), v.description('IATA airline code')),
        name: v.pipe(v.string(), v.description('Airline name as Avinor writes it')),
      }),
    ),
    aliases: { name: ['[].name'] },
    // The list changes a few times a year; the source refreshes it daily in the background.
    cacheTtlSeconds: 3600,

    async run(params, ctx) {
      const client = ctx.upstream('avinor')
      const airlines = await feeds.airlines(client)
      return { data: matchNames(airlines, params.query), sourceApi: client.url(AVINOR_PATHS.airlineNames) }
    },

    entities(data) {
      return data.map((airline) => ({ type: 'airline', id: airline.code, name: airline.name }))
    },
  })
}
