import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { enturTurn, type EnturAccess } from './entur-calls.js'
import { enturGeocoder } from './entur-upstreams.js'
import { readGeocoderStops, stopSchema } from './geocoder-stops.js'
import { stopsPlaceField } from './place-fields.js'

/** Stops asked of the geocoder around a point; a city centre has some tens within a kilometre. */
export const REVERSE_SIZE = 100

/**
 * Builds `find_stops_nearby`: stop places around a point, nearest first, from Entur's geocoder
 * (reverse search in the venue layer). It fills the places field `stops`.
 *
 * @example
 * const findStopsNearby = createFindStopsNearby({ budget: enturRequestBudget, clientName: undefined })
 */
export function createFindStopsNearby(access: EnturAccess) {
  return defineOperation({
    description:
      "Public transport stop places within radius_km of a point, nearest first, from Entur's geocoder, each with its distance. Each id is what get_departures takes.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 1, max: 5 }),
    },
    output: v.array(
      v.object({
        ...stopSchema.entries,
        distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
      }),
    ),
    placeField: stopsPlaceField,
    canonicalFieldAliases: { name: ['[].name'] },
    cacheTtlSeconds: 86_400,

    async run(params, ctx) {
      const client = ctx.upstream(enturGeocoder)
      const headers = await enturTurn(access, client)
      const res = await client.getJson('/reverse', {
        query: {
          'point.lat': params.lat,
          'point.lon': params.lon,
          'boundary.circle.radius': params.radius_km,
          size: REVERSE_SIZE,
          layers: 'venue',
        },
        headers,
      })
      // The geocoder's own distance and order are not relied on: radius and order are kept here.
      const found = nearest(
        { lat: params.lat, lon: params.lon },
        readGeocoderStops(client, res.body),
        params.radius_km,
        (stop) => stop,
      )
      return { data: found.map(({ item, distanceKm }) => ({ ...item, distance_km: distanceKm })) }
    },

    entities: (data) => data.map((stop) => ({ type: 'stop_place', id: stop.id, name: stop.name })),
  })
}
