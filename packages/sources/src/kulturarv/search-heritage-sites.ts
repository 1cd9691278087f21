import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { kartverketKommuneinfo, resolveMunicipality, type MunicipalityLookup } from '../shared/kommuneinfo.js'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { heritageCql, type HeritageFilter } from './heritage-filter.js'
import { parseHeritagePage, type HeritageFeature } from './heritage-features.js'
import { HERITAGE_KIND_CODES, HERITAGE_KINDS } from './heritage-kinds.js'
import { HERITAGE_ITEMS_PATH, riksantikvarenApi } from './kulturarv-upstreams.js'
import { heritageSitesPlaceField } from './place-fields.js'

/** The most features Riksantikvaren's OGC API gives in one page. */
export const UPSTREAM_PAGE_MAX = 1000

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const siteSchema = v.object({
  heritage_site_id: v.pipe(
    v.nullable(v.number()),
    v.description(
      'Askeladden’s locality number (lokalitet), e.g. 100201: several monuments of one site (the buildings of a museum) share it',
    ),
  ),
  monument_id: text('The monument’s own Askeladden id (enkeltminne), e.g. 100201-1'),
  navn: text('Name as Askeladden writes it: often the building or monument, not the institution ("Tilbygg. Nf 325")'),
  art: text('Kind of monument in Askeladden’s words, e.g. Museum-galleri, Kirke, Gravhaug'),
  kind: text('Askeladden’s category code, e.g. E-BYG (see the kind parameter)'),
  kind_name: text('The category’s name, e.g. Bygning'),
  kommune: text('Municipality, as Askeladden writes it'),
  kommunenummer: text('Municipality number, when Askeladden gives it'),
  fylke: text('County'),
  dating: text('Dating or period, e.g. 1600-tallet, Middelalder'),
  protection: text('Protection status (vernestatus), e.g. Vedtaksfredet, Automatisk fredet, Listeført'),
  description: text('Askeladden’s description (informasjon)'),
  link: text('The site on kulturminnesok.no'),
  // A list of two rather than a tuple: OpenAPI linters want `items` on every array.
  lon_lat: v.pipe(
    v.nullable(v.pipe(v.array(v.number()), v.length(2))),
    v.description('[lon, lat] in WGS84, two numbers, as the public gateway’s clients read it'),
  ),
  lat: v.pipe(v.nullable(v.number()), v.description('WGS84 latitude (a polygon’s is the mean of its outline)')),
  lon: v.pipe(v.nullable(v.number()), v.description('WGS84 longitude (a polygon’s is the mean of its outline)')),
  distance_km: v.pipe(
    v.nullable(v.number()),
    v.description('Distance from lat/lon in kilometres, when a point was given'),
  ),
})

type Site = v.InferOutput<typeof siteSchema>

const toRow = (f: HeritageFeature, distanceKm: number | null): Site => ({
  heritage_site_id: f.siteId,
  monument_id: f.featureId,
  navn: f.name,
  art: f.art,
  kind: f.kind,
  kind_name: f.kindName,
  kommune: f.municipality,
  kommunenummer: f.municipalityNumber,
  fylke: f.county,
  dating: f.dating,
  protection: f.protection,
  description: f.description,
  link: f.link,
  lon_lat: f.lat !== null && f.lon !== null ? [f.lon, f.lat] : null,
  lat: f.lat,
  lon: f.lon,
  distance_km: distanceKm,
})

const BBOX_PATTERN = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/

/** A `minLon,minLat,maxLon,maxLat` box that is in range and not inverted, or null. */
function parseBbox(value: string): [number, number, number, number] | null {
  const m = BBOX_PATTERN.exec(value)
  if (!m) return null
  const [w, s, e, n] = m.slice(1, 5).map(Number) as [number, number, number, number]
  const inRange = w >= -180 && e <= 180 && s >= -90 && n <= 90
  return inRange && w < e && s < n ? [w, s, e, n] : null
}

/** The box around a point that holds a circle of `radiusKm`. */
function boxAround(lat: number, lon: number, radiusKm: number): [number, number, number, number] {
  const dLat = radiusKm / 111.2
  const dLon = radiusKm / (111.2 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01))
  const r = (n: number) => Math.round(n * 1e5) / 1e5
  return [
    r(Math.max(lon - dLon, -180)),
    r(Math.max(lat - dLat, -90)),
    r(Math.min(lon + dLon, 180)),
    r(Math.min(lat + dLat, 90)),
  ]
}

const invalid = (parameter: string, problem: string, rule: string) =>
  new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })

const optionalPoint = pointParameters(4)

/** Only the first row of each heritage_site_id, in the order given. */
function onePerSite(rows: Site[]): Site[] {
  const seen = new Set<number>()
  return rows.filter((row) => {
    if (row.heritage_site_id === null) return true
    if (seen.has(row.heritage_site_id)) return false
    seen.add(row.heritage_site_id)
    return true
  })
}

/** What {@link createSearchHeritageSites} is built over. */
export interface SearchHeritageSitesDeps {
  municipalities: MunicipalityLookup
}

/**
 * Builds `search_heritage_sites` over one source instance's municipality lookup.
 *
 * @example
 * const searchHeritageSites = createSearchHeritageSites(deps)
 * // GET /api/v1/kilder/kulturarv/search_heritage_sites?kommune=Oslo&art=Museum-galleri&limit=100
 */
export function createSearchHeritageSites(deps: SearchHeritageSitesDeps) {
  return defineOperation({
    description:
      "Cultural heritage sites in Riksantikvaren's Askeladden register (through its OGC API): by municipality (kommune), " +
      'kind of monument (art, e.g. Museum-galleri), category (kind), text in the name or description (query), a box (bbox) ' +
      'or a point (lat, lon, radius_km; nearest first). Give at least one of them. Each row is one monument, with its locality ' +
      'number heritage_site_id, a [lon, lat] point, dating, protection status and a kulturminnesok.no link. Askeladden registers ' +
      'buildings and monuments, not institutions: a museum is several rows (its buildings) sharing one heritage_site_id; ' +
      'one_per_site=true keeps the first of each. With a point, at most 1000 sites of the box around the circle are read; ' +
      '_meta.capped says when the box held more.',
    parameters: {
      kommune: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, 'must not be empty'),
          v.maxLength(60, 'must be at most 60 characters'),
          v.check(
            (s) => !/^\d+$/.test(s) || /^\d{3,4}$/.test(s),
            'must be a municipality name, or a number of 3 or 4 digits (301 or 0301)',
          ),
          v.description(
            'Municipality: its name (Oslo) or number (0301, or 301 as the public gateway’s clients send it)',
          ),
        ),
      ),
      art: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(2, 'must be at least 2 characters'),
          v.maxLength(60, 'must be at most 60 characters'),
          v.regex(
            /^[\p{L}\d][\p{L}\d \-/.,()]*$/u,
            'must be a kind of monument in words, e.g. Museum-galleri, Kirke, Gravhaug',
          ),
          v.description(
            'Kind of monument as Askeladden words it (its field art), matched exactly: e.g. Museum-galleri, Kirke, Gravhaug, Bolighus',
          ),
        ),
      ),
      kind: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toUpperCase(),
          v.picklist(HERITAGE_KIND_CODES, `must be one of Askeladden's categories: ${HERITAGE_KIND_CODES.join(', ')}`),
          v.description(
            `Askeladden's category (kategori): ${Object.entries(HERITAGE_KINDS)
              .map(([code, name]) => `${code} ${name}`)
              .join('; ')}`,
          ),
        ),
      ),
      query: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(2, 'must be at least 2 characters'),
          v.maxLength(100, 'must be at most 100 characters'),
          v.description('Text in the name or description, whatever the case, e.g. festning, Folkemuseum'),
        ),
      ),
      bbox: v.optional(
        v.pipe(
          v.string(),
          v.check(
            (s) => parseBbox(s) !== null,
            'must be minLon,minLat,maxLon,maxLat in WGS84 degrees, west < east and south < north',
          ),
          v.description('A box in WGS84 degrees: minLon,minLat,maxLon,maxLat, e.g. 10.70,59.90,10.78,59.93'),
        ),
      ),
      lat: v.optional(optionalPoint.lat),
      lon: v.optional(optionalPoint.lon),
      radius_km: radiusKmParameter({ fallback: 1, max: 20 }),
      one_per_site: v.optional(
        v.pipe(
          v.boolean(),
          v.description('Keep only the first row of each heritage_site_id (one row per museum, church site, farm)'),
        ),
        false,
      ),
    },
    limit: { default: 100, max: UPSTREAM_PAGE_MAX },
    output: v.object({
      sites: v.array(siteSchema),
      count: v.pipe(
        v.nullable(v.number()),
        v.description('Sites matched in all, as Riksantikvaren counts them (null when it does not say)'),
      ),
      municipality: v.pipe(
        v.nullable(v.object({ number: v.string(), name: v.string() })),
        v.description('The municipality searched, as Kartverket names it, when kommune was given'),
      ),
    }),
    list: 'sites',
    placeField: heritageSitesPlaceField,
    canonicalFieldAliases: { name: ['sites[].navn'], latitude: ['sites[].lat'], longitude: ['sites[].lon'] },
    shapeNote:
      'data is {sites, count, municipality} with the row fields the public gateway’s clients read (heritage_site_id as a number, ' +
      'navn, lon_lat as [lon, lat]) and its parameters kommune (Oslo), art (Museum-galleri) and limit.',
    // Askeladden changes daily at most; a site's record rarely.
    cacheTtlSeconds: 6 * 3600,

    async run(params, ctx) {
      const hasPoint = params.lat !== undefined || params.lon !== undefined
      if (hasPoint && (params.lat === undefined || params.lon === undefined)) {
        const missing = params.lat === undefined ? 'lat' : 'lon'
        throw invalid(missing, `is required when ${missing === 'lat' ? 'lon' : 'lat'} is given`, 'required_with')
      }
      if (hasPoint && params.bbox !== undefined)
        throw invalid('bbox', 'cannot be combined with lat and lon; give one or the other', 'exclusive')
      const anything = [params.kommune, params.art, params.kind, params.query, params.bbox, params.lat].some(
        (p) => p !== undefined,
      )
      if (!anything) {
        throw invalid(
          'kommune',
          'or another filter is required: give kommune, art, kind, query, bbox, or lat and lon',
          'one_of_required',
        )
      }
      const filter: HeritageFilter = {
        ...(params.art ? { art: params.art } : {}),
        ...(params.kind ? { kind: params.kind } : {}),
        ...(params.query ? { query: params.query } : {}),
      }
      let municipality: { number: string; name: string } | null = null
      if (params.kommune !== undefined) {
        const found = await resolveMunicipality(
          deps.municipalities,
          ctx.upstream(kartverketKommuneinfo),
          params.kommune,
        )
        municipality = { number: found.number, name: found.name }
        filter.municipality = municipality
      }
      const client = ctx.upstream(riksantikvarenApi)
      const cql = heritageCql(filter)
      const base = { f: 'json', ...(cql ? { filter: cql, 'filter-lang': 'cql2-text' } : {}) }

      if (params.lat !== undefined && params.lon !== undefined) {
        // The API has no circle: the box around it is read once, and the circle and order are made here.
        const bbox = boxAround(params.lat, params.lon, params.radius_km).join(',')
        const response = await client.getJson(HERITAGE_ITEMS_PATH, {
          query: { ...base, bbox, limit: UPSTREAM_PAGE_MAX, offset: 0 },
        })
        const page = parseHeritagePage(response.body, client)
        const found = nearest({ lat: params.lat, lon: params.lon }, page.features, params.radius_km, (f) =>
          f.lat !== null && f.lon !== null ? { lat: f.lat, lon: f.lon } : null,
        )
        let rows = found.map(({ item, distanceKm }) => toRow(item, distanceKm))
        if (params.one_per_site) rows = onePerSite(rows)
        const boxHeldMore = page.hasNext || (page.matched !== null && page.matched > page.features.length)
        const data = { sites: rows, count: rows.length, municipality }
        const rawValues = { sites_in_box: page.matched ?? page.features.length, bbox_searched: bbox }
        if (!boxHeldMore) return { data, rawValues, sourceApi: response.url }
        const reason = `Riksantikvaren gives at most ${UPSTREAM_PAGE_MAX} sites a page and the box around the circle held more; a smaller radius_km or a filter (art, kind) finds the rest`
        return { data, rawValues, sourceApi: response.url, capped: { cap: UPSTREAM_PAGE_MAX, reason } }
      }

      // Without a point the upstream pages: exactly the page asked for is read.
      const query = {
        ...base,
        ...(params.bbox ? { bbox: parseBbox(params.bbox)!.join(',') } : {}),
        limit: params.limit,
        offset: params.offset,
      }
      const response = await client.getJson(HERITAGE_ITEMS_PATH, { query })
      const page = parseHeritagePage(response.body, client)
      let rows = page.features.map((f) => toRow(f, null))
      if (params.one_per_site) rows = onePerSite(rows)
      const hasMore = page.matched !== null ? params.offset + page.features.length < page.matched : page.hasNext
      return {
        data: { sites: rows, count: page.matched, municipality },
        sourceApi: response.url,
        page: { hasMore, ...(page.matched !== null ? { total: page.matched } : {}) },
      }
    },
  })
}
