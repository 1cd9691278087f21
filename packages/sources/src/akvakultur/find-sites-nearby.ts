import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { aquaculturePlaceField } from './place-fields.js'
import type { SiteRegisterCache } from './site-register.js'

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const siteSchema = v.object({
  site_nr: v.pipe(v.string(), v.description('Site number (lokalitetsnummer) in the Aquaculture Register')),
  name: text('Name of the site'),
  holders: text('Licence holders at the site, as the register lists them (map layer only; null from the register API)'),
  municipality: text('Municipality the site is registered to'),
  county: text('County the site is registered to'),
  status: text('Status of the site in the register, e.g. KLARERT'),
  capacity: v.pipe(v.nullable(v.number()), v.description('Permitted capacity of the site, in capacity_unit')),
  capacity_unit: text('Unit of capacity, e.g. TN (tonnes)'),
  species: text('Species the site is cleared for, as the register lists them'),
  url: text("The site's page at Fiskeridirektoratet, when the register gives one"),
  lat: v.pipe(v.number(), v.description('WGS84 latitude')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude')),
  distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
})

/**
 * One site as `find_sites_nearby` returns it.
 *
 * @example
 * const salmon = (sites: AquacultureSiteRow[]) => sites.filter((site) => site.species?.includes('Laks'))
 */
export type AquacultureSiteRow = v.InferOutput<typeof siteSchema>

/**
 * Builds `find_sites_nearby` over the memoized register of one source instance.
 *
 * @example
 * const findSitesNearby = createFindSitesNearby(createSiteRegister())
 */
export function createFindSitesNearby(register: SiteRegisterCache) {
  return defineOperation({
    description:
      "Aquaculture sites (fish farms and other localities in Fiskeridirektoratet's Aquaculture Register) within radius_km of a point, nearest first, with holders, species and capacity. The whole register is fetched once a day and filtered by distance here.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 10, max: 200 }),
    },
    output: v.object({
      sites: v.array(siteSchema),
      radius_km: v.pipe(v.number(), v.description('The radius searched, in kilometres')),
    }),
    list: 'sites',
    placeField: aquaculturePlaceField,
    canonicalFieldAliases: { name: ['sites[].name'] },
    shapeNote:
      "No client of the public gateway is known to read aquaculture sites, so the shape follows this gateway's other place operations: {sites, radius_km, has_more_results}, nearest first, with distance_km, in English field names.",
    cacheTtlSeconds: 3600,

    async run(params, ctx) {
      const { sites, skipped, upstream, sourceApi } = await register.get(ctx)
      const found = nearest({ lat: params.lat, lon: params.lon }, sites, params.radius_km, (site) => site)
      const rows = found.map(({ item, distanceKm }) => ({
        site_nr: item.siteNr,
        name: item.name,
        holders: item.holders,
        municipality: item.municipality,
        county: item.county,
        status: item.status,
        capacity: item.capacity,
        capacity_unit: item.capacityUnit,
        species: item.species,
        url: item.url,
        lat: item.lat,
        lon: item.lon,
        distance_km: distanceKm,
      }))
      return {
        data: { sites: rows, radius_km: params.radius_km },
        sourceApi,
        rawValues: { register: upstream.id, register_sites: sites.length, register_sites_without_position: skipped },
      }
    },
  })
}
