import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { postGraphql } from '../shared/graphql-request.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { boundingBoxAround } from './bounding-box.js'
import { enturTurn, type EnturAccess } from './entur-calls.js'
import { enturVehicles } from './entur-upstreams.js'
import { liveVehicleSchema, readLiveVehicles, VEHICLE_MODES, VEHICLES_QUERY } from './vehicle-positions.js'

/**
 * Builds `find_live_vehicles_nearby`: buses, trams, metro trains, trains and ferries within a
 * radius of a point, where they were last reported, nearest first, from Entur's vehicle
 * positions. `data` is `{ count, returned, vehicles }`, `vehicles` paged by `limit`/`offset`.
 *
 * @example
 * const findLiveVehiclesNearby = createFindLiveVehiclesNearby({ budget: enturRequestBudget, clientName: undefined })
 */
export function createFindLiveVehiclesNearby(access: EnturAccess) {
  return defineOperation({
    description:
      'Public transport vehicles (bus, tram, metro, rail, ferry, coach) within radius_km of a point now, ' +
      "nearest first, from Entur's real-time vehicle positions: id, mode, line, destination, position, " +
      'delay and when it was reported. data.vehicles is paged by limit and offset; data.count is how many ' +
      'are within the radius.',
    parameters: {
      // Vehicles move some metres a second: a cell of ~11 m keeps a map's repeated asks apart only where it matters.
      ...pointParameters(4),
      radius_km: radiusKmParameter({ fallback: 1, max: 20 }),
      mode: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toUpperCase(),
          v.picklist(VEHICLE_MODES, `must be one of ${VEHICLE_MODES.join(', ')}`),
          v.description(`Only vehicles of this mode: ${VEHICLE_MODES.join(', ')}; every mode when left out`),
        ),
      ),
    },
    limit: { default: 50, max: 200 },
    output: v.object({
      count: v.pipe(v.number(), v.description('Vehicles within the radius, before paging')),
      returned: v.pipe(v.number(), v.description('Vehicles on this page')),
      vehicles: v.array(liveVehicleSchema),
    }),
    list: 'vehicles',
    shapeNote:
      "data is { count, returned, vehicles } with the row fields the public gateway's clients read " +
      '(vehicle_id as Entur gives it, mode, line, line_name, destination, lat, lon, last_updated); the rest ' +
      'stand beside them. Rows are sorted by distance_m.',
    canonicalFieldAliases: { timestamp: ['vehicles[].last_updated'] },
    // Entur's positions move every few seconds; ten keeps a map polling every few seconds from
    // costing Entur one call each, and a position older than that is still a useful one.
    cacheTtlSeconds: 10,

    async run(params, ctx) {
      const client = ctx.upstream(enturVehicles)
      const headers = await enturTurn(access, client)
      const center = { lat: params.lat, lon: params.lon }
      const { data } = await postGraphql(
        client,
        '/graphql',
        {
          query: VEHICLES_QUERY,
          variables: { boundingBox: boundingBoxAround(center, params.radius_km), mode: params.mode ?? null },
        },
        headers,
      )
      const found = readLiveVehicles(client, data, center, params.radius_km)
      const page = found.slice(params.offset, params.offset + params.limit)
      return {
        data: { count: found.length, returned: page.length, vehicles: page },
        page: { hasMore: params.offset + page.length < found.length, total: found.length },
      }
    },
  })
}
