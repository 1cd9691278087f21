import * as v from 'valibot'
import { nearest } from '../shared/nearest.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'
import type { RegistrationPoint } from './registration-points.js'

/**
 * What every operation over the point list shares: the `traffic_type` filter, the entities of a
 * list of points, the cache time, and the search around a point.
 */

/** The list changes a few times a year; an hour keeps answers close to the day's list. */
export const POINT_LIST_TTL_SECONDS = 3600

/** The optional `traffic_type` parameter: VEHICLE or BICYCLE, both when left out. */
export const trafficTypeParameter = v.optional(
  v.pipe(
    v.picklist(['VEHICLE', 'BICYCLE']),
    v.description('Only points counting this: VEHICLE (motor vehicles) or BICYCLE; both when left out'),
  ),
)

/**
 * A filter keeping the points that count `type` (every point when it is undefined).
 *
 * @example
 * const points = await createRegistrationPointList().get(client)
 * const bicycleCounters = points.filter(ofTrafficType('BICYCLE'))
 */
export const ofTrafficType = (type: string | undefined) => (p: RegistrationPoint) =>
  type === undefined || p.traffic_type === type

/**
 * The points of an answer as entities, each linked to its volumes.
 *
 * @example
 * registrationPointEntities([{ id: '44656V72812', name: 'Ulven' }]) // [{ type: 'traffic_registration_point', id: '44656V72812', name: 'Ulven' }]
 */
export const registrationPointEntities = (points: { id: string; name: string }[]) =>
  points.map((p) => ({ type: 'traffic_registration_point', id: p.id, name: p.name }))

/**
 * The position of a point, or null when Vegvesen gives none.
 *
 * @example
 * const [first] = await createRegistrationPointList().get(client)
 * positionOf(first!) // { lat: 59.9102, lon: 10.7515 }
 */
export const positionOf = (p: RegistrationPoint): Wgs84Point | null =>
  p.lat === null || p.lon === null ? null : { lat: p.lat, lon: p.lon }

/**
 * The points within `radiusKm` of `center`, nearest first, each with `distance_km`.
 *
 * @example
 * const points = await createRegistrationPointList().get(client)
 * pointsNear({ lat: 59.91, lon: 10.75 }, points, 5)[0] // { id: '10234B1110003', …, distance_km: 0.08 }
 */
export function pointsNear(
  center: Wgs84Point,
  points: RegistrationPoint[],
  radiusKm: number,
): (RegistrationPoint & { distance_km: number })[] {
  return nearest(center, points, radiusKm, positionOf).map(({ item, distanceKm }) => ({
    ...item,
    distance_km: distanceKm,
  }))
}
