import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { distanceKm, pointParameters } from '../shared/wgs84-point.js'
import { anleggsregisteretApi } from './anleggsregisteret-upstream.js'
import { FACILITIES_PATH, PAGE_SIZE, type FacilityRegisterCache } from './facility-register.js'
import { facilitySchema, statusParameter, toRow } from './facility-row.js'
import { sportsFacilitiesPlaceField } from './place-fields.js'

/**
 * Builds `find_facilities_nearby`: the register's facilities within a radius of a point,
 * nearest first, over one source instance's copy of the register; the operation behind the
 * `sports_facilities` place field.
 *
 * @example
 * const nearby = createFindFacilitiesNearby(deps.register)
 */
export function createFindFacilitiesNearby(register: FacilityRegisterCache) {
  return defineOperation({
    description:
      'Sports and cultural facilities from Anleggsregisteret within radius_km of a WGS84 point, nearest first, each with its ' +
      'distance. Facilities without a believable position (see find_facilities) cannot be placed and are not among them. ' +
      'Read from the same copy of the register as find_facilities, which answers 502 upstream_busy until it is read.',
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 2, max: 20 }),
      status: statusParameter,
    },
    limit: { default: 100, max: 500 },
    output: v.object({
      facilities: v.array(
        v.object({
          ...facilitySchema.entries,
          distance_km: v.pipe(v.number(), v.description('Distance from the point, in km')),
        }),
      ),
      count: v.pipe(v.number(), v.description('Facilities within the radius: the whole list before limit and offset')),
      radius_km: v.pipe(v.number(), v.description('The radius searched, in kilometres')),
      register_read_at: v.pipe(v.string(), v.description('When the gateway last read the whole register (ISO 8601)')),
    }),
    list: 'facilities',
    placeField: sportsFacilitiesPlaceField,
    canonicalFieldAliases: {
      name: ['facilities[].name'],
      latitude: ['facilities[].lat'],
      longitude: ['facilities[].lon'],
    },
    shapeNote: 'The rows of find_facilities, with distance_km from the point; not an operation of the public gateway.',
    cacheTtlSeconds: 3 * 3600,

    async run(params, ctx) {
      const client = ctx.upstream(anleggsregisteretApi)
      const read = await register.get(client)
      const point = { lat: params.lat, lon: params.lon }
      const near = read.facilities
        .filter((f) => f.lat !== null && f.lon !== null && (!params.status || f.status === params.status))
        .map((f) => ({ facility: f, distance: distanceKm(point, { lat: f.lat!, lon: f.lon! }) }))
        .filter(({ distance }) => distance <= params.radius_km)
        .sort((a, b) => a.distance - b.distance || a.facility.id - b.facility.id)
      return {
        data: {
          facilities: near.map(({ facility, distance }) => ({
            ...toRow(facility),
            distance_km: Math.round(distance * 1000) / 1000,
          })),
          count: near.length,
          radius_km: params.radius_km,
          register_read_at: new Date(read.loadedAt).toISOString(),
        },
        sourceApi: client.url(FACILITIES_PATH, { page: 0, size: PAGE_SIZE }),
      }
    },
  })
}
