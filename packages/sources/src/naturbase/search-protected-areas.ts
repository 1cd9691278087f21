import * as v from 'valibot'
import { defineOperation, rankByName } from '@allmenning/core/source'
import { readVernAnswer, sqlText, vernQuery } from './arcgis-answer.js'
import { naturbaseVern, VERN_QUERY_PATH } from './naturbase-upstream.js'
import { METRES_PER_DEGREE, protectedArea, protectedAreaFields } from './protected-area-rows.js'
import { featuresById } from './vern-features.js'

/** Outlines for a name search are read only to place a point inside each area: coarse is enough. */
const POINT_TOLERANCE_M = 100

/**
 * `search_protected_areas`: protected areas by name, best match first; what the source's
 * entity search asks.
 *
 * @example
 * // GET /api/v1/kilder/naturbase/search_protected_areas?query=Østensjøvannet
 */
export const searchProtectedAreas = defineOperation({
  description:
    "Protected areas from Miljødirektoratet's Naturbase whose name or official name contains the text, best match first, " +
    'each with a point inside it (lat/lon) and without its outline (get_protected_area gives it).',
  parameters: {
    query: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(2, 'must be at least 2 characters'),
      v.maxLength(100, 'must be at most 100 characters'),
      v.check((s) => /[\p{L}\d]/u.test(s), 'must contain a letter or a digit'),
      v.description('Text in the name, e.g. "Østensjøvannet" or "Lillomarka"'),
    ),
  },
  limit: { default: 20, max: 200 },
  output: v.object({
    protected_areas: v.array(v.object(protectedAreaFields)),
    count: v.pipe(v.number(), v.description('Areas found: the whole list before limit and offset')),
    upstream_capped: v.pipe(
      v.boolean(),
      v.description("True when Miljødirektoratet's service sent only its first page of matches"),
    ),
  }),
  list: 'protected_areas',
  canonicalFieldAliases: {
    name: ['protected_areas[].official_name'],
    latitude: ['protected_areas[].lat'],
    longitude: ['protected_areas[].lon'],
  },
  cacheTtlSeconds: 12 * 3600,

  async run(params, ctx) {
    const client = ctx.upstream(naturbaseVern)
    // LIKE's own wildcards in the text are taken as text, not as wildcards.
    const pattern = sqlText(`%${params.query.toUpperCase().replace(/[%_[\]]/g, ' ')}%`)
    const query = vernQuery(`UPPER(navn) LIKE ${pattern} OR UPPER(offisieltNavn) LIKE ${pattern}`, {
      maxAllowableOffset: (POINT_TOLERANCE_M / METRES_PER_DEGREE).toFixed(6),
    })
    const answer = readVernAnswer(client, (await client.getJson(VERN_QUERY_PATH, { query })).body)
    const areas = featuresById(answer.features).map((feature) =>
      protectedArea(feature, { withGeometry: false, toleranceM: null }),
    )
    const ranked = rankByName(params.query, areas, (area) => ({ names: [area.name ?? '', area.official_name ?? ''] }), {
      keepUnmatched: true,
    })
    const found = ranked.map(({ item }) => item)
    return {
      data: { protected_areas: found, count: found.length, upstream_capped: answer.exceededTransferLimit },
      ...(answer.exceededTransferLimit
        ? {
            capped: {
              cap: answer.features.length,
              reason: `Miljødirektoratet's service sent only its first ${answer.features.length} matches.`,
            },
          }
        : {}),
    }
  },
  entities: (data) =>
    data.protected_areas.map((area) => ({
      type: 'protected_area',
      id: area.id,
      name: area.official_name ?? area.name ?? area.id,
    })),
})
