import * as v from 'valibot'
import { defineOperation, upstreamNotConfigured, UpstreamError } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { boundingBox } from './bounding-box.js'
import { parseFireCsv } from './fire-csv.js'
import { FIRMS_KEY_VARIABLE, firmsApi } from './firms-upstream.js'
import { fireDetectionsPlaceField } from './place-fields.js'

/** The near-real-time products FIRMS serves by area (about the last two months). */
export const FIRMS_PRODUCTS = ['VIIRS_SNPP_NRT', 'VIIRS_NOAA20_NRT', 'VIIRS_NOAA21_NRT', 'MODIS_NRT'] as const

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const detectionSchema = v.object({
  lat: v.pipe(v.number(), v.description('WGS84 latitude of the detection (centre of the pixel)')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude of the detection')),
  acquired_at: text('When the satellite saw it, ISO 8601 UTC'),
  satellite: text('Satellite code as FIRMS gives it, e.g. N (Suomi NPP), N20, N21, A (Aqua), T (Terra)'),
  instrument: text('VIIRS or MODIS'),
  confidence: v.pipe(v.nullable(v.picklist(['low', 'nominal', 'high'])), v.description('Detection confidence class')),
  confidence_pct: v.pipe(
    v.nullable(v.number()),
    v.description('MODIS confidence in percent (VIIRS gives only the class)'),
  ),
  brightness_k: v.pipe(
    v.nullable(v.number()),
    v.description('Brightness temperature in kelvin (VIIRS I-4 or MODIS band 21/22)'),
  ),
  frp_mw: v.pipe(v.nullable(v.number()), v.description('Fire radiative power in megawatts')),
  daynight: v.pipe(v.nullable(v.picklist(['day', 'night'])), v.description('Whether it was seen by day or by night')),
  distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
})

/**
 * Builds `find_fire_detections` with the deployment's FIRMS MAP_KEY (or none).
 *
 * @example
 * const findFireDetections = createFindFireDetections(process.env.ALLMENNING_FIRMS_MAP_KEY)
 */
export function createFindFireDetections(mapKey: string | undefined) {
  return defineOperation({
    description:
      'Active fires and other hot spots seen by satellite (NASA FIRMS, VIIRS or MODIS, near real time) within radius_km of a point over the last 1 to 5 days, nearest first. Needs a FIRMS MAP_KEY (ALLMENNING_FIRMS_MAP_KEY); without one the answer is a 502 upstream_not_configured.',
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 25, max: 250 }),
      days: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(5),
          v.description('Days back from today to include, 1 to 5 (FIRMS’s own limit)'),
        ),
        1,
      ),
      product: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toUpperCase(),
          v.picklist(FIRMS_PRODUCTS),
          v.description('Satellite product; VIIRS on Suomi NPP by default'),
        ),
        'VIIRS_SNPP_NRT',
      ),
    },
    output: v.object({
      detections: v.array(detectionSchema),
      radius_km: v.pipe(v.number(), v.description('The radius searched, in kilometres')),
      days: v.pipe(v.number(), v.description('The days searched')),
      product: v.pipe(v.string(), v.description('The satellite product searched')),
    }),
    list: 'detections',
    placeField: fireDetectionsPlaceField,
    canonicalFieldAliases: { timestamp: ['detections[].acquired_at'] },
    shapeNote:
      "No client of the public gateway is known to read fire detections, so the shape follows this gateway's other place operations: {detections, radius_km, days, product, has_more_results}, nearest first, with FIRMS's CSV columns as typed, named fields.",
    cacheTtlSeconds: 900,

    async run(params, ctx) {
      const client = ctx.upstream(firmsApi)
      if (!mapKey) throw upstreamNotConfigured(client, FIRMS_KEY_VARIABLE)
      const area = boundingBox({ lat: params.lat, lon: params.lon }, params.radius_km)
      const path = `/area/csv/${encodeURIComponent(mapKey)}/${params.product}/${area}/${params.days}`
      const res = await client.getText(path, { acceptStatus: [400, 401, 403], redact: [mapKey] })
      if (res.status !== 200) {
        const said = res.body.trim().slice(0, 120)
        const keyProblem = /map_key/i.test(said) || res.status !== 400
        throw new UpstreamError(
          client,
          'status',
          keyProblem
            ? `refused the configured MAP_KEY (HTTP ${res.status}${said ? `: ${said}` : ''}); check ${FIRMS_KEY_VARIABLE}`
            : `answered HTTP 400${said ? `: ${said}` : ''}`,
          res.status,
        )
      }
      const { detections, skipped } = parseFireCsv(res.body, client)
      // The box is wider than the circle; its corners are dropped here.
      const found = nearest({ lat: params.lat, lon: params.lon }, detections, params.radius_km, (d) => d)
      const rows = found.map(({ item, distanceKm }) => ({
        lat: item.lat,
        lon: item.lon,
        acquired_at: item.acquiredAt,
        satellite: item.satellite,
        instrument: item.instrument,
        confidence: item.confidence,
        confidence_pct: item.confidencePct,
        brightness_k: item.brightnessK,
        frp_mw: item.frpMw,
        daynight: item.daynight,
        distance_km: distanceKm,
      }))
      const rawValues: Record<string, unknown> = { area, detections_in_area: detections.length }
      if (skipped > 0) rawValues['unreadable_rows_skipped'] = skipped
      return {
        data: { detections: rows, radius_km: params.radius_km, days: params.days, product: params.product },
        rawValues,
      }
    },
  })
}
