import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { searchCensus } from './census-search.js'
import { censusPropertySchema } from './census-rows.js'
import { digitalarkivetCensus } from './digitalarkivet-upstream.js'
import { censusPropertiesPlaceField } from './place-fields.js'

/** Radius around a point when none is given, in metres: a few blocks of a 1910 town, a farm and its neighbours. */
export const DEFAULT_RADIUS_M = 500

/** Largest radius, in metres, as the public clients of the API keep to. */
export const MAX_RADIUS_M = 5000

const point = pointParameters(4)

/**
 * Builds `search_census_properties` over the request budget its calls take turns in.
 *
 * @example
 * const operation = createSearchCensusProperties(censusRequestBudget)
 */
export function createSearchCensusProperties(budget: RequestBudget | undefined) {
  return defineOperation({
    description:
      "Dwelling places of Norway's 1910 census (farms, holdings and town street addresses) from Arkivverket's Digitalarkivet, " +
      'by name (of the farm, street or a resident, with * as a wildcard: Berg*) or within radius_m of a point, or both, ' +
      'with farm and holding numbers, county and municipality of 1910, the mapped position (null for the places Arkivverket ' +
      'has not mapped) and, unless include_residents=false, the people counted there. Digitalarkivet asks for 5 s between ' +
      'requests: answers are cached for a week (the census does not change), and a search that would wait more than 4 s ' +
      'for its turn answers 502 upstream_busy at once with Retry-After.',
    parameters: {
      query: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, 'must not be empty'),
          v.maxLength(100, 'must be at most 100 characters'),
          v.description(
            'Name of a farm, holding, street or resident as written in 1910 (Kristiania, Karl Johans gate 1, Berg*); * is a wildcard',
          ),
        ),
      ),
      lat: v.optional(point.lat),
      lon: v.optional(point.lon),
      radius_m: v.optional(
        v.pipe(
          v.number(),
          v.gtValue(0, 'must be greater than 0'),
          v.maxValue(MAX_RADIUS_M),
          v.description(
            `Radius around lat/lon in metres, at most ${MAX_RADIUS_M}; ${DEFAULT_RADIUS_M} when left out. Sent as the API's ` +
              '"precision": the API finds nothing around a point without one',
          ),
        ),
        DEFAULT_RADIUS_M,
      ),
      include_residents: v.optional(
        v.pipe(
          v.boolean(),
          v.description('true (the default): each place with the people counted there; false: the places only'),
        ),
        true,
      ),
    },
    limit: { default: 50, max: 100 },
    output: v.object({
      count: v.pipe(v.number(), v.description('Places that match in all, as Digitalarkivet counts them')),
      returned: v.pipe(v.number(), v.description('Places on this page')),
      properties: v.array(censusPropertySchema),
      limit: v.pipe(v.number(), v.description('Most places per page')),
      offset: v.pipe(v.number(), v.description('Places skipped before this page')),
      truncated: v.pipe(v.boolean(), v.description('True when more places match than this page holds')),
      next_offset: v.pipe(v.nullable(v.number()), v.description('The offset of the next page; null on the last')),
    }),
    list: 'properties',
    placeField: censusPropertiesPlaceField,
    canonicalFieldAliases: {
      name: ['properties[].gaardsnavn_gateadr'],
      latitude: ['properties[].coordinates.lat'],
      longitude: ['properties[].coordinates.lon'],
    },
    shapeNote:
      'data has the public gateway’s shape: properties[] with property_id, gaardsnavn_gateadr, gaardsnr and bruksnr (as text), ' +
      'bruksnavn, fylke, kommune_sokn, source, coordinates{lat,lon} and residents[], beside count, returned, limit, offset, ' +
      'has_more_results, truncated and next_offset. A place without a position has coordinates null (the public gateway left ' +
      'the field out); residents is null when include_residents=false.',
    // The 1910 census is closed: a week keeps Digitalarkivet's crawl delay far from any client.
    cacheTtlSeconds: 7 * 24 * 3600,
    entities: (data) =>
      data.properties.map((p) => ({
        type: 'census_property',
        id: p.property_id,
        name: p.gaardsnavn_gateadr ?? p.bruksnavn ?? p.property_id,
      })),

    async run(params, ctx) {
      const client = ctx.upstream(digitalarkivetCensus)
      const found = await searchCensus(client, budget, {
        query: params.query,
        lat: params.lat,
        lon: params.lon,
        radiusM: params.radius_m,
        includeResidents: params.include_residents,
        limit: params.limit,
        offset: params.offset,
      })
      const returned = found.properties.length
      return {
        data: {
          count: found.total ?? params.offset + returned,
          returned,
          properties: found.properties,
          limit: params.limit,
          offset: params.offset,
          truncated: found.hasMore,
          next_offset: found.hasMore ? params.offset + params.limit : null,
        },
        page: { hasMore: found.hasMore, ...(found.total !== undefined ? { total: found.total } : {}) },
        sourceApi: found.url,
        ...(found.withoutId > 0 ? { rawValues: { records_without_id: found.withoutId } } : {}),
      }
    },
  })
}
