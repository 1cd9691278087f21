import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import { MAX_AGE_DAYS, YR_ATTRIBUTION, YR_BADETEMP_KEY_VARIABLE, yrBadetemperaturer } from './badetemp-upstream.js'
import { getWithKey, readReadings } from './water-temperatures.js'

/** Yr's location ids: digits in groups joined by hyphens (`0-10014`, `10-1088746`). */
const LOCATION_ID = /^\d{1,3}-\d{1,10}$/

/**
 * Builds `get_water_temperatures` with the deployment's Yr key (or none).
 *
 * @example
 * const readings = createGetWaterTemperatures(apiKey)
 * // GET /api/v1/kilder/badetemp/get_water_temperatures?location_id=0-10014
 */
export function createGetWaterTemperatures(apiKey: string | undefined, now: () => number = Date.now) {
  return defineOperation({
    description:
      `The readings of one bathing-temperature measuring point from the last ${MAX_AGE_DAYS} days, newest first ` +
      '(older ones are left out, as Yr’s terms ask); get_nearest_water_temperatures finds the points. Badetemperaturer ' +
      `levert av Yr. Needs a Yr API key (${YR_BADETEMP_KEY_VARIABLE}); without one the answer is a 502 upstream_not_configured.`,
    parameters: {
      location_id: v.pipe(
        v.string(),
        v.trim(),
        v.regex(LOCATION_ID, 'must be a Yr location id: digits, a hyphen, digits, e.g. 0-10014'),
        v.description("Yr's id of the measuring point, e.g. 0-10014 (from get_nearest_water_temperatures)"),
      ),
    },
    limit: { default: 50, max: 500 },
    output: v.object({
      location_id: v.pipe(v.string(), v.description('The point asked for')),
      attribution: v.pipe(v.string(), v.description('The credit Yr asks to be shown with the temperatures')),
      temperatures: v.array(
        v.object({
          temperature_c: v.pipe(v.number(), v.description('Water temperature in degrees Celsius')),
          time: v.pipe(v.string(), v.description('When it was measured, ISO 8601 with the offset Yr gives')),
        }),
      ),
    }),
    list: 'temperatures',
    canonicalFieldAliases: { timestamp: ['temperatures[].time'] },
    cacheTtlSeconds: 1800,

    async run(params, ctx) {
      const client = ctx.upstream(yrBadetemperaturer)
      if (!apiKey) throw upstreamNotConfigured(client, YR_BADETEMP_KEY_VARIABLE)
      const res = await getWithKey(
        client,
        `/locations/${encodeURIComponent(params.location_id)}/watertemperatures`,
        apiKey,
        [404],
      )
      if (res.status === 404)
        throw new GatewayError(404, 'entity_not_found', `Yr has no bathing-temperature point ${params.location_id}`)
      const { readings, tooOld, unreadable } = readReadings(res.body, client, now())
      return {
        data: { location_id: params.location_id, attribution: YR_ATTRIBUTION, temperatures: readings },
        rawValues: {
          readings_from_yr: readings.length + tooOld + unreadable,
          ...(tooOld > 0 ? { left_out_older_than_5_days: tooOld } : {}),
          ...(unreadable > 0 ? { left_out_unreadable: unreadable } : {}),
        },
      }
    },
  })
}
