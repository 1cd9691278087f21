import * as v from 'valibot'
import { createTimedMemo, defineOperation, type UpstreamClient } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { parseOverpassPois, type OverpassPois } from './overpass-elements.js'
import { overpassApi } from './overpass-upstream.js'
import { POI_CATEGORIES, resolveTag } from './poi-categories.js'
import { MAX_ELEMENTS, overpassQuery, POI_TYPES, type PoiQuery } from './poi-query.js'
import { poisPlaceField } from './place-fields.js'

export const OVERPASS_PATH = '/interpreter'

const CAP_REASON = `Overpass answers at most ${MAX_ELEMENTS} elements per search, not nearest first; a smaller radius_km or a category finds the rest`

/**
 * The point is rounded to a cell of 0.001° (about 110 m), so nearby questions are one question:
 * they share the gateway's cache and, through the memo here, one Overpass query whatever their
 * limit and offset, as Overpass's operators ask of heavy users.
 */
const CELL_DECIMALS = 3

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

/** The clients' six categories named in the parameter's description; list_categories gives the rest. */
const namedInDescription = POI_CATEGORIES.slice(0, 6).map((c) => c.key)

const poiSchema = v.object({
  id: v.pipe(v.number(), v.description('OpenStreetMap id of the element (unique together with osm_type)')),
  osm_type: v.pipe(v.string(), v.description('node, way or relation')),
  lat: v.pipe(v.number(), v.description('WGS84 latitude (the centre, for a way or relation)')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude')),
  type: v.pipe(v.string(), v.description(`The OpenStreetMap key that makes it a POI: ${POI_TYPES.join(', ')}`)),
  category: v.pipe(v.string(), v.description('Its value, e.g. restaurant, bicycle_parking, bakery, museum')),
  name: nullableText('Name, when it has one'),
  address: nullableText('Street address from its addr:* tags'),
  opening_hours: nullableText('Opening hours in OpenStreetMap syntax'),
  website: nullableText('Website'),
  distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
})

/**
 * Builds `search_poi` with its own memo of Overpass answers per cell and filter.
 *
 * @example
 * const searchPoi = createSearchPoi()
 */
export function createSearchPoi() {
  const answers = createTimedMemo<OverpassPois>({ ttlMs: 3_600_000, errorTtlMs: 30_000, maxEntries: 500 })

  async function ask(client: UpstreamClient, query: PoiQuery): Promise<OverpassPois> {
    const data = overpassQuery(query)
    const res = await client.getJson(OVERPASS_PATH, { query: { data } })
    return parseOverpassPois(res.body, client, query)
  }

  return defineOperation({
    description:
      'Points of interest from OpenStreetMap within radius_km of a point, nearest first: restaurants, shops, museums, bicycle parking and the like, by OpenStreetMap key (type) and value (category); list_categories lists the categories known by name and the tag each searches. Without a category only named POIs are returned.',
    parameters: {
      ...pointParameters(CELL_DECIMALS),
      radius_km: radiusKmParameter({ fallback: 1, max: 10 }),
      category: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toLowerCase(),
          v.regex(
            /^[a-z0-9_]{1,64}$/,
            'must be an OpenStreetMap value such as restaurant or bicycle_parking (letters, digits and _)',
          ),
          v.description(
            `One category per call: ${namedInDescription.join(', ')} or any other key list_categories lists (searched as its ` +
              'OpenStreetMap tag), or any other OpenStreetMap value of the keys type takes',
          ),
        ),
      ),
      type: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toLowerCase(),
          v.picklist(POI_TYPES),
          v.description('OpenStreetMap key the category belongs to; any of them when left out'),
        ),
      ),
    },
    limit: { default: 25, max: 200 },
    output: v.object({
      matched: v.pipe(v.number(), v.description('POIs within the radius that match, before paging')),
      offset: v.pipe(v.number(), v.description('Items skipped before this page')),
      count: v.pipe(v.number(), v.description('Items on this page')),
      items: v.array(poiSchema),
      limit: v.pipe(v.number(), v.description('Most items per page')),
      returned: v.pipe(v.number(), v.description('Items on this page (the same as count)')),
      truncated: v.pipe(
        v.boolean(),
        v.description(`True when Overpass hit its cap of ${MAX_ELEMENTS} elements, so matched may be an undercount`),
      ),
    }),
    list: 'items',
    placeField: poisPlaceField,
    canonicalFieldAliases: { name: ['items[].name'] },
    shapeNote:
      'data has the shape of the public gateway (matched, offset, count, items with id, lat, lon, type, category, name, distance_km, limit, returned, has_more_results, truncated), so its clients work unchanged; when truncated, _meta.capped says the cap too; osm_type, address, opening_hours and website stand beside them. It asks OpenStreetMap live through Overpass rather than a snapshot, and limit above 200 is a 400 rather than cut to 200.',
    cacheTtlSeconds: 3600,

    async run(params, ctx) {
      const client = ctx.upstream(overpassApi)
      const query: PoiQuery = {
        lat: params.lat,
        lon: params.lon,
        radiusM: Math.round(params.radius_km * 1000),
        ...resolveTag(params.category, params.type),
      }
      const key = JSON.stringify(query)
      const { pois, elements, dataAsOf } = await answers.get(key, () => ask(client, query))
      const found = nearest({ lat: params.lat, lon: params.lon }, pois, params.radius_km, (poi) => poi.position)
      const page = found.slice(params.offset, params.offset + params.limit)
      const items = page.map(({ item, distanceKm }) => ({
        id: item.id,
        osm_type: item.osmType,
        lat: item.position.lat,
        lon: item.position.lon,
        type: item.type,
        category: item.category,
        name: item.name,
        address: item.address,
        opening_hours: item.openingHours,
        website: item.website,
        distance_km: distanceKm,
      }))
      const truncated = elements >= MAX_ELEMENTS
      return {
        data: {
          matched: found.length,
          offset: params.offset,
          count: items.length,
          items,
          limit: params.limit,
          returned: items.length,
          truncated,
        },
        page: { hasMore: params.offset + items.length < found.length, total: found.length },
        // Overpass stops at the cap in its own (quadtile) order, so nearer POIs than those answered may be missing.
        ...(truncated ? { capped: { cap: MAX_ELEMENTS, reason: CAP_REASON } } : {}),
        sourceApi: client.url(OVERPASS_PATH, { data: overpassQuery(query) }),
        ...(dataAsOf ? { rawValues: { osm_data_as_of: dataAsOf } } : {}),
      }
    },
  })
}
