import * as v from 'valibot'
import { defineOperation, rankByName } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { registrationPointSchema, type RegistrationPoint, type RegistrationPointList } from './registration-points.js'
import { roadOf } from './road-reference.js'
import { vegvesenTrafikkdata } from './trafikkdata-upstream.js'
import { trafficRegistrationPointsPlaceField } from './place-fields.js'

const trafficType = v.optional(
  v.pipe(v.picklist(['VEHICLE', 'BICYCLE']), v.description('Only points counting this: VEHICLE (motor vehicles) or BICYCLE; both when left out')),
)

const ofType = (type: string | undefined) => (p: RegistrationPoint) => type === undefined || p.traffic_type === type

const entities = (data: RegistrationPoint[]) => data.map((p) => ({ type: 'traffic_registration_point', id: p.id, name: p.name }))

// The list changes a few times a year; an hour keeps answers close to the day's list.
const POINT_LIST_TTL_SECONDS = 3600

/**
 * Builds `find_registration_points_nearby`: traffic registration points around a point,
 * nearest first. It fills the places field `traffic_registration_points`.
 *
 * @example
 * const op = createFindRegistrationPointsNearby(createRegistrationPointList())
 */
export function createFindRegistrationPointsNearby(list: RegistrationPointList) {
  return defineOperation({
    name: 'find_registration_points_nearby',
    description:
      "Statens vegvesen's traffic registration points (counters of vehicles or bicycles) within radius_km of a point, nearest first. Each id is what get_traffic_volume takes.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 5, max: 50 }),
      traffic_type: trafficType,
    },
    output: v.array(v.object({ ...registrationPointSchema.entries, distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')) })),
    placeField: trafficRegistrationPointsPlaceField,
    canonicalFieldAliases: { name: ['[].name'] },
    cacheTtlSeconds: POINT_LIST_TTL_SECONDS,

    async run(params, ctx) {
      const points = (await list.get(ctx.upstream(vegvesenTrafikkdata))).filter(ofType(params.traffic_type))
      const found = nearest({ lat: params.lat, lon: params.lon }, points, params.radius_km, (p) => (p.lat === null || p.lon === null ? null : { lat: p.lat, lon: p.lon }))
      return { data: found.map(({ item, distanceKm }) => ({ ...item, distance_km: distanceKm })) }
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
    name: 'find_registration_points_by_road',
    description:
      "Statens vegvesen's traffic registration points on one road (E6, RV4, FV44, ...), optionally in one county, in the order of the road reference.",
    parameters: {
      road: v.pipe(
        v.string(),
        v.trim(),
        v.check((text) => roadOf(text) !== undefined, 'must name a road as a category and a number, e.g. E6, RV4, FV44 (categories E, R, F, K, P)'),
        v.transform((text) => roadOf(text)!),
        v.description('The road: category E, R, F, K or P and its number, e.g. E6, EV6, RV4, FV44'),
      ),
      county_number: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(99), v.description('Only points in this county, by number (e.g. 46 Vestland)'))),
      traffic_type: trafficType,
    },
    output: v.array(registrationPointSchema),
    canonicalFieldAliases: { name: ['[].name'] },
    cacheTtlSeconds: POINT_LIST_TTL_SECONDS,

    async run(params, ctx) {
      const points = (await list.get(ctx.upstream(vegvesenTrafikkdata)))
        .filter((p) => p.road === params.road && (params.county_number === undefined || p.county_number === params.county_number))
        .filter(ofType(params.traffic_type))
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
    name: 'search_registration_points',
    description: "Statens vegvesen's traffic registration points by name or id, best match first.",
    parameters: {
      query: v.pipe(v.string(), v.trim(), v.minLength(2), v.maxLength(100), v.description('Name, part of a name, or id, e.g. Ulven or 44656V72812')),
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
