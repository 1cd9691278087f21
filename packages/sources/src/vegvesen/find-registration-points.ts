import * as v from 'valibot'
import { defineOperation, rankByName } from '@allmenning/core/source'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import {
  ofTrafficType,
  pointsNear,
  POINT_LIST_TTL_SECONDS,
  registrationPointEntities as entities,
  trafficTypeParameter as trafficType,
} from './registration-point-query.js'
import { registrationPointSchema, type RegistrationPointList } from './registration-points.js'
import { roadOf } from './road-reference.js'
import { vegvesenTrafikkdata } from './trafikkdata-upstream.js'
import { trafficRegistrationPointsPlaceField } from './place-fields.js'

/**
 * Builds `find_registration_points_nearby`: traffic registration points around a point,
 * nearest first. It fills the places field `traffic_registration_points`.
 *
 * @example
 * const op = createFindRegistrationPointsNearby(createRegistrationPointList())
 */
export function createFindRegistrationPointsNearby(list: RegistrationPointList) {
  return defineOperation({
    description:
      "Statens vegvesen's traffic registration points (counters of vehicles or bicycles) within radius_km of a point, nearest first. Each id is what get_traffic_volume takes.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 5, max: 50 }),
      traffic_type: trafficType,
    },
    output: v.array(
      v.object({
        ...registrationPointSchema.entries,
        distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
      }),
    ),
    placeField: trafficRegistrationPointsPlaceField,
    canonicalFieldAliases: { name: ['[].name'] },
    cacheTtlSeconds: POINT_LIST_TTL_SECONDS,

    async run(params, ctx) {
      const points = (await list.get(ctx.upstream(vegvesenTrafikkdata))).filter(ofTrafficType(params.traffic_type))
      return { data: pointsNear({ lat: params.lat, lon: params.lon }, points, params.radius_km) }
    },
    entities,
  })
}

/**
 * Builds `find_registration_points_by_road`: the registration points on one road, in the
 * order of the road reference.
 *
 * @example
 * const op = createFindRegistrationPointsByRoad(createRegistrationPointList())
 */
export function createFindRegistrationPointsByRoad(list: RegistrationPointList) {
  return defineOperation({
    description:
      "Statens vegvesen's traffic registration points on one road (E6, RV4, FV44, ...), optionally in one county, in the order of the road reference.",
    parameters: {
      road: v.pipe(
        v.string(),
        v.trim(),
        v.check(
          (text) => roadOf(text) !== undefined,
          'must name a road as a category and a number, e.g. E6, RV4, FV44 (categories E, R, F, K, P)',
        ),
        v.transform((text) => roadOf(text)!),
        v.description('The road: category E, R, F, K or P and its number, e.g. E6, EV6, RV4, FV44'),
      ),
      county_number: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(99),
          v.description('Only points in this county, by number (e.g. 46 Vestland)'),
        ),
      ),
      traffic_type: trafficType,
    },
    output: v.array(registrationPointSchema),
    canonicalFieldAliases: { name: ['[].name'] },
    cacheTtlSeconds: POINT_LIST_TTL_SECONDS,

    async run(params, ctx) {
      const points = (await list.get(ctx.upstream(vegvesenTrafikkdata)))
        .filter(
          (p) =>
            p.road === params.road && (params.county_number === undefined || p.county_number === params.county_number),
        )
        .filter(ofTrafficType(params.traffic_type))
      const order = new Intl.Collator('nb', { numeric: true })
      return { data: points.sort((a, b) => order.compare(a.road_reference ?? '', b.road_reference ?? '')) }
    },
    entities,
  })
}

/**
 * Builds `search_registration_points`: registration points by name (or id), best match first,
 * ranked as every lookup by name is. The source's entity search calls it.
 *
 * @example
 * const op = createSearchRegistrationPoints(createRegistrationPointList())
 */
export function createSearchRegistrationPoints(list: RegistrationPointList) {
  return defineOperation({
    description: "Statens vegvesen's traffic registration points by name or id, best match first.",
    parameters: {
      query: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(2),
        v.maxLength(100),
        v.description('Name, part of a name, or id, e.g. Ulven or 44656V72812'),
      ),
    },
    output: v.array(registrationPointSchema),
    canonicalFieldAliases: { name: ['[].name'] },
    cacheTtlSeconds: POINT_LIST_TTL_SECONDS,

    async run(params, ctx) {
      const points = await list.get(ctx.upstream(vegvesenTrafikkdata))
      const ranked = rankByName(params.query, points, (p) => ({ codes: [p.id], names: [p.name] }))
      return { data: ranked.map(({ item }) => item) }
    },
    entities,
  })
}
