import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import { cleanNumber, cleanText, type AquacultureSite } from './aquaculture-site.js'

/** Layer 0 of the aquaculture map service: the register's localities. */
export const ARCGIS_SITES_PATH = '/FiskeridirWFS_akva/MapServer/0/query'

/** The fields asked for, as a public client of the layer names them. */
const OUT_FIELDS =
  'loknr,navn,til_innehavere,kommune,fylke,status_lokalitet,kapasitet_lok,kapasitet_unittype,til_arter,lokalitet_url'

/** Asked per page; a server whose maxRecordCount is lower sends fewer and says more remain. */
const PAGE_SIZE = 1000
/** The register holds under 2 000 sites; this bounds a server that ignores resultOffset. */
const MAX_PAGES = 20

/**
 * The layer query without paging, as `_provenance` shows it.
 *
 * @example
 * client.url(ARCGIS_SITES_PATH, arcgisSitesQuery())
 */
export function arcgisSitesQuery() {
  return { where: '1=1', outFields: OUT_FIELDS, returnGeometry: 'true', outSR: '4326', f: 'geojson' }
}

// ArcGIS answers a failed query with HTTP 200 and this body; it must never pass for "no sites".
const arcgisError = v.object({
  error: v.looseObject({ code: v.optional(v.union([v.number(), v.string()])), message: v.optional(v.string()) }),
})

const page = v.looseObject({
  type: v.literal('FeatureCollection'),
  features: v.array(
    v.looseObject({
      geometry: v.nullish(v.looseObject({ type: v.string(), coordinates: v.optional(v.unknown()) })),
      properties: v.nullish(v.record(v.string(), v.unknown())),
    }),
  ),
  // Where ArcGIS says more rows remain: inside `properties` in GeoJSON, at the top in Esri JSON.
  properties: v.optional(v.nullable(v.looseObject({ exceededTransferLimit: v.optional(v.boolean()) }))),
  exceededTransferLimit: v.optional(v.boolean()),
})

/**
 * Throws the ArcGIS error a 200 answer carries, as a 502 naming the upstream.
 *
 * @example
 * throwIfArcgisError(client, { error: { code: 500, message: 'Error performing query operation' } }) // throws
 */
export function throwIfArcgisError(upstream: { id: string; name: string }, body: unknown): void {
  const error = v.safeParse(arcgisError, body)
  if (!error.success) return
  const { code, message } = error.output.error
  const detail = [code, message].filter((part) => part !== undefined && part !== '').join(': ')
  throw new UpstreamError(upstream, 'status', `answered an error inside HTTP 200${detail ? ` (${detail})` : ''}`)
}

function toSite(
  properties: Record<string, unknown>,
  geometry: { type: string; coordinates?: unknown } | null | undefined,
): AquacultureSite | null {
  const siteNr = cleanText(properties.loknr)
  if (geometry?.type !== 'Point' || !Array.isArray(geometry.coordinates) || siteNr === null) return null
  const [lon, lat] = geometry.coordinates as unknown[]
  const position = { lat: cleanNumber(lat), lon: cleanNumber(lon) }
  if (!isKnownPosition(position)) return null
  return {
    siteNr,
    name: cleanText(properties.navn),
    holders: cleanText(properties.til_innehavere),
    municipality: cleanText(properties.kommune),
    county: cleanText(properties.fylke),
    status: cleanText(properties.status_lokalitet),
    capacity: cleanNumber(properties.kapasitet_lok),
    capacityUnit: cleanText(properties.kapasitet_unittype),
    species: cleanText(properties.til_arter),
    url: cleanText(properties.lokalitet_url),
    ...position,
  }
}

/**
 * Every site of map layer 0, page by page (`resultOffset`), until ArcGIS stops saying that
 * more remain. Sites without a usable point are counted in `skipped`.
 *
 * @example
 * const { sites } = await fetchArcgisSites(ctx.upstream(fiskeridirGis))
 */
export async function fetchArcgisSites(client: UpstreamClient): Promise<{ sites: AquacultureSite[]; skipped: number }> {
  const sites = new Map<string, AquacultureSite>()
  let skipped = 0
  let offset = 0
  for (let pageNumber = 0; pageNumber < MAX_PAGES; pageNumber++) {
    const res = await client.getJson(ARCGIS_SITES_PATH, {
      query: { ...arcgisSitesQuery(), resultOffset: offset, resultRecordCount: PAGE_SIZE },
    })
    throwIfArcgisError(client, res.body)
    const body = checkUpstreamShape(client, page, res.body, 'the aquaculture site layer')
    let added = 0
    for (const feature of body.features) {
      const site = toSite(feature.properties ?? {}, feature.geometry)
      if (!site) {
        skipped++
        continue
      }
      if (!sites.has(site.siteNr)) added++
      sites.set(site.siteNr, site)
    }
    const more = body.properties?.exceededTransferLimit === true || body.exceededTransferLimit === true
    // A page that adds nothing new means the server ignores resultOffset: stop rather than loop.
    if (!more || (body.features.length > 0 && added === 0)) break
    offset += body.features.length
  }
  return { sites: [...sites.values()], skipped }
}
