import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { enturTurn, type EnturAccess } from './entur-calls.js'
import { enturGeocoder } from './entur-upstreams.js'
import { readGeocoderStops, stopSchema } from './geocoder-stops.js'
import { AUTOCOMPLETE_SIZE } from './autocomplete-size.js'

/**
 * Builds `search_stops`: stop places by name, from Entur's geocoder autocomplete, as
 * `{ stops, returned }`, the shape the public gateway's clients read.
 *
 * @example
 * const searchStops = createSearchStops({ budget: enturRequestBudget, clientName: undefined })
 */
export function createSearchStops(access: EnturAccess) {
  return defineOperation({
    description:
      'Public transport stop places in Norway by name (bus, tram, metro, rail, ferry, airport), best match ' +
      "first, from Entur's geocoder. Each id is what get_departures takes. Free text only: " +
      'find_stops_nearby searches around a point.',
    parameters: {
      query: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(1),
        v.maxLength(100),
        v.description('Name or part of a name, e.g. Jernbanetorget'),
      ),
    },
    output: v.object({
      returned: v.pipe(v.number(), v.description('Stop places on this page')),
      stops: v.array(stopSchema),
    }),
    list: 'stops',
    // The geocoder is asked for its best 50; more could not be paged to.
    limit: { default: 10, max: AUTOCOMPLETE_SIZE },
    canonicalFieldAliases: { name: ['stops[].name'] },
    shapeNote:
      "data is { stops, returned } with the row fields the public gateway's clients read (id, name, category, lat, lon, label, municipality, county).",
    // The stop register changes with the timetables, a few times a year.
    cacheTtlSeconds: 86_400,

    async run(params, ctx) {
      const client = ctx.upstream(enturGeocoder)
      const headers = await enturTurn(access, client)
      const res = await client.getJson('/autocomplete', {
        query: { text: params.query, lang: 'no', size: AUTOCOMPLETE_SIZE, layers: 'venue' },
        headers,
      })
      const stops = readGeocoderStops(client, res.body)
      const page = stops.slice(params.offset, params.offset + params.limit)
      return {
        data: { returned: page.length, stops: page },
        page: { hasMore: params.offset + page.length < stops.length, total: stops.length },
      }
    },

    entities: (data) => data.stops.map((stop) => ({ type: 'stop_place', id: stop.id, name: stop.name })),
  })
}
