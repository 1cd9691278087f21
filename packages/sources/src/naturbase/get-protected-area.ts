import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { readVernAnswer, sqlText, vernQuery } from './arcgis-answer.js'
import { naturbaseVern, VERN_QUERY_PATH } from './naturbase-upstream.js'
import { METRES_PER_DEGREE, protectedArea, protectedAreaFields } from './protected-area-rows.js'
import { featuresById } from './vern-features.js'

/** Naturbase's ids: two letters for the register (VV for protected areas) and eight digits. */
export const naturvernIdParameter = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z]{2}\d{8}$/, 'must be a Naturbase id: two letters and eight digits, such as VV00000972'),
  v.description("Naturbase's id of the area (naturvernId), e.g. VV00000972 (Østensjøvannet naturreservat)"),
)

/**
 * `get_protected_area`: one protected area by its Naturbase id, with its whole outline.
 *
 * @example
 * // GET /api/v1/kilder/naturbase/get_protected_area?id=VV00000972
 */
export const getProtectedArea = defineOperation({
  description:
    "One protected area from Miljødirektoratet's Naturbase by its id (naturvernId, e.g. VV00000972): form of protection, IUCN " +
    'category, date, municipalities, area, fact sheet and regulation, a point inside it, and its outline as GeoJSON in WGS84, ' +
    'whole unless simplify_m asks the service to generalise it (a national park’s whole outline can be megabytes).',
  parameters: {
    id: naturvernIdParameter,
    simplify_m: v.optional(
      v.pipe(
        v.number(),
        v.minValue(0),
        v.maxValue(1000),
        v.description(
          'Let the outline stray up to this many metres from the register’s, for a smaller answer; 0 (the default) keeps it whole',
        ),
      ),
      0,
    ),
  },
  output: v.object(protectedAreaFields),
  canonicalFieldAliases: { name: ['official_name'], latitude: ['lat'], longitude: ['lon'] },
  cacheTtlSeconds: 24 * 3600,

  async run(params, ctx) {
    const client = ctx.upstream(naturbaseVern)
    const query = vernQuery(`naturvernId = ${sqlText(params.id)}`, {
      ...(params.simplify_m > 0 ? { maxAllowableOffset: (params.simplify_m / METRES_PER_DEGREE).toFixed(7) } : {}),
    })
    const answer = readVernAnswer(client, (await client.getJson(VERN_QUERY_PATH, { query })).body)
    const [feature] = featuresById(answer.features.filter((f) => f.attributes.naturvernId.toUpperCase() === params.id))
    if (!feature)
      throw new GatewayError(404, 'entity_not_found', `Naturbase has no protected area with id ${params.id}`)
    return {
      data: protectedArea(feature, {
        withGeometry: true,
        toleranceM: params.simplify_m > 0 ? params.simplify_m : null,
      }),
    }
  },
  entities: (data) => [{ type: 'protected_area', id: data.id, name: data.official_name ?? data.name ?? data.id }],
})
