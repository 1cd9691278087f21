import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import {
  ofTrafficType,
  pointsNear,
  POINT_LIST_TTL_SECONDS,
  positionOf,
  registrationPointEntities,
  trafficTypeParameter,
} from './registration-point-query.js'
import { registrationPointSchema, type RegistrationPoint, type RegistrationPointList } from './registration-points.js'
import { vegvesenTrafikkdata } from './trafikkdata-upstream.js'

const point = pointParameters(3)

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const trafficPoint = v.object({
  ...registrationPointSchema.entries,
  lat: v.pipe(v.number(), v.description('WGS84 latitude')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude')),
  coordinates: v.pipe(
    v.object({ lat: v.number(), lon: v.number() }),
    v.description('The same position as {lat, lon}, where some clients read it'),
  ),
  latest_hourly_data: nullableText('The latest hour with volume data (the same as latest_hour)'),
  distance_km: v.optional(
    v.pipe(v.number(), v.description('Distance from lat/lon in kilometres; only when a point was given')),
  ),
})

type TrafficPoint = v.InferOutput<typeof trafficPoint>

function toTrafficPoint(p: RegistrationPoint & { distance_km?: number }): TrafficPoint {
  const { lat, lon } = positionOf(p)!
  return { ...p, lat, lon, coordinates: { lat, lon }, latest_hourly_data: p.latest_hour }
}

function refuse(parameter: string, problem: string, others: string[] = []): GatewayError {
  const details = [parameter, ...others].map((name) => ({ parameter: name, problem, rule: 'required' }))
  return new GatewayError(
    400,
    'invalid_parameter',
    `Invalid parameter: ${[parameter, ...others].join(', ')} ${problem}`,
    { details },
  )
}

const byName = new Intl.Collator('nb', { numeric: true })

/**
 * Builds `find_traffic_points`: the registration points of a county, or around a point, in the
 * shape the public gateway's clients read (a bare list; `coordinates` and `latest_hourly_data`
 * beside `lat`, `lon` and `latest_hour`). Points without a position are left out: every row is
 * on a map.
 *
 * @example
 * const op = createFindTrafficPoints(createRegistrationPointList())
 */
export function createFindTrafficPoints(list: RegistrationPointList) {
  return defineOperation({
    description:
      "Statens vegvesen's traffic registration points in a county (county_number, e.g. 3 for Oslo), or within radius_km of a point (lat, lon), or both; nearest first when a point is given, by name otherwise. Points without a position are left out. Each id is what get_traffic_volume takes.",
    parameters: {
      county_number: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(99),
          v.description(
            'County number, e.g. 3 (or 03) for Oslo, 46 for Vestland; required unless lat and lon are given',
          ),
        ),
      ),
      lat: v.optional(point.lat),
      lon: v.optional(point.lon),
      radius_km: radiusKmParameter({ fallback: 10, max: 100 }),
      operational_only: v.optional(
        v.pipe(
          v.boolean(),
          v.description('Only points in operation now (operational_status OPERATIONAL); all when left out'),
        ),
        false,
      ),
      traffic_type: trafficTypeParameter,
    },
    output: v.array(trafficPoint),
    canonicalFieldAliases: { name: ['[].name'] },
    shapeNote:
      'data is a bare list, as the public gateway answers find_traffic_points, with the row fields its clients read (id, name, lat, lon, road_reference, coordinates {lat, lon}, latest_hourly_data); the fields of find_registration_points_nearby stand beside them, and distance_km when a point was given.',
    cacheTtlSeconds: POINT_LIST_TTL_SECONDS,

    async run(params, ctx) {
      if (params.lat !== undefined && params.lon === undefined) throw refuse('lon', 'is required with lat')
      if (params.lon !== undefined && params.lat === undefined) throw refuse('lat', 'is required with lon')
      const center =
        params.lat !== undefined && params.lon !== undefined ? { lat: params.lat, lon: params.lon } : undefined
      if (params.county_number === undefined && center === undefined) {
        throw refuse(
          'county_number',
          'is required unless lat and lon are given (a county, or a point with radius_km)',
          ['lat', 'lon'],
        )
      }
      const points = (await list.get(ctx.upstream(vegvesenTrafikkdata)))
        .filter((p) => params.county_number === undefined || p.county_number === params.county_number)
        .filter((p) => !params.operational_only || p.operational_status === 'OPERATIONAL')
        .filter(ofTrafficType(params.traffic_type))
      if (center) return { data: pointsNear(center, points, params.radius_km).map(toTrafficPoint) }
      const placed = points.filter((p) => positionOf(p) !== null).sort((a, b) => byName.compare(a.name, b.name))
      return { data: placed.map(toTrafficPoint) }
    },
    entities: registrationPointEntities,
  })
}
