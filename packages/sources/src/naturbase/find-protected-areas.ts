import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { readVernAnswer, sqlText, vernQuery } from './arcgis-answer.js'
import { naturbaseVern, VERN_QUERY_PATH } from './naturbase-upstream.js'
import { protectedAreasPlaceField } from './place-fields.js'
import { distanceToAreaKm } from './polygon-measures.js'
import { METRES_PER_DEGREE, protectedArea, protectedAreaFields } from './protected-area-rows.js'
import { PROTECTION_FORMS, protectionFormCodes } from './protection-forms.js'
import { featuresById } from './vern-features.js'

/** How far the outlines of a search may stray from the register's, in metres: small answers, still true to a map. */
export const SEARCH_TOLERANCE_M = 20

const KM_PER_DEGREE = 111.195

/** The `verneform` filter: a code or the Norwegian words, matching every form that begins with it. */
export const protectionFormParameter = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(60, 'must be at most 60 characters'),
    v.check(
      (s) => protectionFormCodes(s).length > 0,
      `must be a form of protection: a Naturbase code (${Object.keys(PROTECTION_FORMS).slice(0, 6).join(', ')}, …) or its words ` +
        '(nasjonalpark, naturreservat, landskapsvernområde, naturminne, biotopvern, marint verneområde, …)',
    ),
    v.description(
      'Only areas of this form of protection (verneform): a code such as Naturreservat or words such as "landskapsvernområde"; ' +
        'every form beginning with it counts, so naturreservat includes the reserves on Svalbard and Jan Mayen',
    ),
  ),
)

/**
 * `find_protected_areas`: the protected areas within a radius of a point, nearest first, the
 * operation behind the `protected_areas` place field.
 *
 * @example
 * // GET /api/v1/kilder/naturbase/find_protected_areas?lat=59.8859&lon=10.8247&radius_km=3
 */
export const findProtectedAreas = defineOperation({
  description:
    'Protected areas (verneområder: national parks, nature reserves, landscape protection areas, natural monuments…) from ' +
    "Miljødirektoratet's Naturbase within radius_km of a WGS84 point, nearest first (distance_km 0 when the point is inside), " +
    'each with its form of protection in code and words, IUCN category, date of protection, municipalities, area, fact sheet ' +
    'and regulation, a point lat/lon that lies inside the area (for clients that show only points) and its outline as GeoJSON, ' +
    `generalised by ${SEARCH_TOLERANCE_M} m (use get_protected_area for the whole outline). When the service cuts the answer at ` +
    'its page size, _meta.capped and upstream_capped say so.',
  parameters: {
    ...pointParameters(4),
    radius_km: radiusKmParameter({ fallback: 5, max: 50 }),
    verneform: protectionFormParameter,
    include_geometry: v.optional(
      v.pipe(v.boolean(), v.description('Give each area its outline as GeoJSON (true by default)')),
      true,
    ),
  },
  limit: { default: 50, max: 500 },
  output: v.object({
    protected_areas: v.array(
      v.object({
        ...protectedAreaFields,
        distance_km: v.pipe(
          v.number(),
          v.description('Kilometres from the point to the edge of the area; 0 when the point is inside it'),
        ),
      }),
    ),
    count: v.pipe(v.number(), v.description('Areas within the radius: the whole list before limit and offset')),
    radius_km: v.pipe(v.number(), v.description('The radius searched, in kilometres')),
    upstream_capped: v.pipe(
      v.boolean(),
      v.description(
        "True when Miljødirektoratet's service sent only its first page of the areas near the point: some may be missing",
      ),
    ),
  }),
  list: 'protected_areas',
  placeField: protectedAreasPlaceField,
  canonicalFieldAliases: {
    name: ['protected_areas[].official_name'],
    latitude: ['protected_areas[].lat'],
    longitude: ['protected_areas[].lon'],
  },
  shapeNote:
    "The public gateway's protected areas operation is known only by name; its rows' fields here follow Naturbase's.",
  // Areas are protected or changed a few times a month across the whole country.
  cacheTtlSeconds: 12 * 3600,

  async run(params, ctx) {
    const client = ctx.upstream(naturbaseVern)
    const dLat = params.radius_km / KM_PER_DEGREE
    const dLon = params.radius_km / (KM_PER_DEGREE * Math.max(0.01, Math.cos((params.lat * Math.PI) / 180)))
    const envelope = [params.lon - dLon, params.lat - dLat, params.lon + dLon, params.lat + dLat]
      .map((n) => n.toFixed(6))
      .join(',')
    const forms = params.verneform === undefined ? [] : protectionFormCodes(params.verneform)
    const query = vernQuery(forms.length ? `verneform IN (${forms.map(sqlText).join(',')})` : '1=1', {
      geometry: envelope,
      geometryType: 'esriGeometryEnvelope',
      inSR: 4326,
      spatialRel: 'esriSpatialRelIntersects',
      maxAllowableOffset: (SEARCH_TOLERANCE_M / METRES_PER_DEGREE).toFixed(6),
    })
    const response = await client.getJson(VERN_QUERY_PATH, { query })
    const answer = readVernAnswer(client, response.body)
    const here = { lat: params.lat, lon: params.lon }
    const found = featuresById(answer.features)
      // The box's corners are farther than the radius; an area is in when its nearest edge is within it.
      .map((feature) => ({ feature, distance: distanceToAreaKm(here, feature.polygons) }))
      .filter(
        ({ feature, distance }) =>
          distance <= params.radius_km && (forms.length === 0 || forms.includes(feature.attributes.verneform ?? '')),
      )
      .map(({ feature, distance }) => ({
        ...protectedArea(feature, { withGeometry: params.include_geometry, toleranceM: SEARCH_TOLERANCE_M }),
        distance_km: Math.round(distance * 1000) / 1000,
      }))
      .sort(
        (a, b) =>
          a.distance_km - b.distance_km || (a.official_name ?? a.id).localeCompare(b.official_name ?? b.id, 'nb'),
      )
    return {
      data: {
        protected_areas: found,
        count: found.length,
        radius_km: params.radius_km,
        upstream_capped: answer.exceededTransferLimit,
      },
      ...(answer.exceededTransferLimit
        ? {
            capped: {
              cap: answer.features.length,
              reason:
                `Miljødirektoratet's service sent only its first ${answer.features.length} areas in the box around the point ` +
                '(its page size), in no order of distance: nearer areas may be missing. Ask with a smaller radius_km.',
            },
          }
        : {}),
      rawValues: { features_in_box: answer.features.length },
    }
  },
  entities: (data) =>
    data.protected_areas.map((area) => ({
      type: 'protected_area',
      id: area.id,
      name: area.official_name ?? area.name ?? area.id,
    })),
})
