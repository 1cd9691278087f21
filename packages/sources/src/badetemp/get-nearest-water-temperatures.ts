import * as v from 'valibot'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import { distanceKm, pointParameters } from '../shared/wgs84-point.js'
import {
  NEAREST_CAP,
  NEAREST_RADIUS_KM,
  YR_ATTRIBUTION,
  YR_BADETEMP_KEY_VARIABLE,
  yrBadetemperaturer,
} from './badetemp-upstream.js'
import { waterTemperaturesPlaceField } from './place-fields.js'
import { getWithKey, readLocations } from './water-temperatures.js'

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

/** The path of Yr's nearest points, with the point written `lat,lon`. */
export const nearestPath = (lat: number, lon: number) => `/locations/${lat},${lon}/nearestwatertemperatures`

/**
 * Builds `get_nearest_water_temperatures` with the deployment's Yr key (or none).
 *
 * @example
 * const nearest = createGetNearestWaterTemperatures(apiKey)
 * // GET /api/v1/kilder/badetemp/get_nearest_water_temperatures?lat=59.91&lon=10.75
 */
export function createGetNearestWaterTemperatures(apiKey: string | undefined, now: () => number = Date.now) {
  return defineOperation({
    description:
      `Bathing water temperatures at the measuring points nearest a point, nearest first: Yr answers at most ${NEAREST_CAP} ` +
      `points within ${NEAREST_RADIUS_KM} km, so a limit above ${NEAREST_CAP} is answered with what there is and _meta.capped ` +
      'says so. Readings older than five days are left out, as Yr’s terms ask. Badetemperaturer levert av Yr. Needs a Yr ' +
      `API key (${YR_BADETEMP_KEY_VARIABLE}); without one the answer is a 502 upstream_not_configured.`,
    parameters: {
      ...pointParameters(3),
      radius_km: v.optional(
        v.pipe(
          v.number(),
          v.gtValue(0, 'must be greater than 0'),
          v.maxValue(NEAREST_RADIUS_KM),
          v.description(
            `Only points within this many kilometres, at most ${NEAREST_RADIUS_KM} (how far Yr looks); ${NEAREST_RADIUS_KM} when left out`,
          ),
        ),
        NEAREST_RADIUS_KM,
      ),
    },
    limit: { default: NEAREST_CAP, max: 100 },
    output: v.object({
      count: v.pipe(
        v.number(),
        v.description('Points with a reading from the last five days within radius_km, before paging'),
      ),
      radius_km: v.pipe(v.number(), v.description('The radius searched')),
      attribution: v.pipe(v.string(), v.description('The credit Yr asks to be shown with the temperatures')),
      temperatures: v.array(
        v.object({
          location_id: v.pipe(v.string(), v.description("Yr's id of the measuring point, e.g. 0-10014")),
          name: nullableText('Name of the bathing place'),
          lat: v.pipe(v.number(), v.description('WGS84 latitude')),
          lon: v.pipe(v.number(), v.description('WGS84 longitude')),
          temperature_c: v.pipe(v.number(), v.description('Water temperature in degrees Celsius')),
          time: v.pipe(v.string(), v.description('When it was measured, ISO 8601 with the offset Yr gives')),
          elevation: v.pipe(v.nullable(v.number()), v.description('Metres above sea level')),
          county: nullableText('County'),
          municipality: nullableText('Municipality'),
          source: nullableText('Who measured it, where Yr says (e.g. Badevann.no); null for readings entered by hand'),
          distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
        }),
      ),
    }),
    list: 'temperatures',
    placeField: waterTemperaturesPlaceField,
    canonicalFieldAliases: {
      name: ['temperatures[].name'],
      latitude: ['temperatures[].lat'],
      longitude: ['temperatures[].lon'],
      timestamp: ['temperatures[].time'],
    },
    shapeNote:
      'data has the public gateway’s shape (temperatures with location_id, name, lat, lon, temperature_c, time), with the ' +
      'point’s county, municipality, source and distance beside them, and the attribution Yr asks for.',
    // Most points report a few times a day; some by hand.
    cacheTtlSeconds: 900,
    // Each measuring point, linked to its own readings.
    entities: (data) =>
      data.temperatures.map((t) => ({ type: 'bathing_spot', id: t.location_id, ...(t.name ? { name: t.name } : {}) })),

    async run(params, ctx) {
      const client = ctx.upstream(yrBadetemperaturer)
      if (!apiKey) throw upstreamNotConfigured(client, YR_BADETEMP_KEY_VARIABLE)
      const res = await getWithKey(client, nearestPath(params.lat, params.lon), apiKey)
      const { temperatures, unreadable, tooOld } = readLocations(res.body, client, now())
      const center = { lat: params.lat, lon: params.lon }
      const rows = temperatures
        .map((t) => ({ t, d: Math.round(distanceKm(center, t) * 1000) / 1000 }))
        .filter(({ d }) => d <= params.radius_km)
        .sort((a, b) => a.d - b.d)
        .map(({ t, d }) => ({
          location_id: t.locationId,
          name: t.name,
          lat: t.lat,
          lon: t.lon,
          temperature_c: t.temperatureC,
          time: t.time,
          elevation: t.elevation,
          county: t.county,
          municipality: t.municipality,
          source: t.source,
          distance_km: d,
        }))
      const received = temperatures.length + unreadable + tooOld
      const rawValues: Record<string, unknown> = {
        points_from_yr: received,
        ...(tooOld > 0 ? { left_out_older_than_5_days: tooOld } : {}),
        ...(unreadable > 0 ? { left_out_unreadable: unreadable } : {}),
      }
      const data = { count: rows.length, radius_km: params.radius_km, attribution: YR_ATTRIBUTION, temperatures: rows }
      // Yr stops at six: when it gave six and more were asked for, there may be more points within 50 km.
      if (params.limit > NEAREST_CAP && received >= NEAREST_CAP) {
        return {
          data,
          rawValues,
          capped: {
            cap: NEAREST_CAP,
            reason: `Yr answers at most the ${NEAREST_CAP} nearest measuring points within ${NEAREST_RADIUS_KM} km`,
          },
        }
      }
      return { data, rawValues }
    },
  })
}
