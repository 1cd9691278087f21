import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import { cleanNumber, cleanText, type AquacultureSite } from './aquaculture-site.js'

/** The register's site list; no position filter, at most 100 rows per call. */
export const PUB_AQUA_SITES_PATH = '/sites'

/** pub-aqua refuses a range of more than 100 rows (`0-100` is a 400). */
const PAGE_SIZE = 100
/** About 1 800 sites today: 18 pages. The cap stops a server that never sends a short page. */
const MAX_PAGES = 40

const name = v.optional(v.nullable(v.string()))
const siteList = v.array(
  v.looseObject({
    siteNr: v.optional(v.nullable(v.union([v.number(), v.string()]))),
    name,
    latitude: v.optional(v.nullable(v.union([v.number(), v.string()]))),
    longitude: v.optional(v.nullable(v.union([v.number(), v.string()]))),
    capacity: v.optional(v.nullable(v.union([v.number(), v.string()]))),
    capacityUnitType: name,
    placement: v.optional(v.nullable(v.looseObject({ municipalityName: name, countyName: name }))),
    speciesTypeValue: name,
    speciesLimitations: v.optional(v.nullable(v.array(v.looseObject({ nbNoName: name })))),
    version: v.optional(v.nullable(v.looseObject({ status: name }))),
  }),
)

type Row = v.InferOutput<typeof siteList>[number]

function species(row: Row): string | null {
  const limited = (row.speciesLimitations ?? [])
    .map((s) => cleanText(s.nbNoName))
    .filter((s): s is string => s !== null)
  return limited.length > 0 ? limited.join(', ') : cleanText(row.speciesTypeValue)
}

function toSite(row: Row): AquacultureSite | null {
  const siteNr = cleanText(row.siteNr)
  const position = { lat: cleanNumber(row.latitude), lon: cleanNumber(row.longitude) }
  if (siteNr === null || !isKnownPosition(position)) return null
  return {
    siteNr,
    name: cleanText(row.name),
    // The register API keeps holders on licences, not on sites.
    holders: null,
    municipality: cleanText(row.placement?.municipalityName),
    county: cleanText(row.placement?.countyName),
    status: cleanText(row.version?.status),
    capacity: cleanNumber(row.capacity),
    capacityUnit: cleanText(row.capacityUnitType),
    species: species(row),
    url: null,
    ...position,
  }
}

/**
 * Every site of the register, 100 at a time (`range=0-99`, `100-199`, ...), until a short page.
 *
 * @example
 * const { sites } = await fetchPubAquaSites(ctx.upstream(fiskeridirAqua))
 */
export async function fetchPubAquaSites(
  client: UpstreamClient,
): Promise<{ sites: AquacultureSite[]; skipped: number }> {
  const sites: AquacultureSite[] = []
  let skipped = 0
  for (let pageNumber = 0; pageNumber < MAX_PAGES; pageNumber++) {
    const from = pageNumber * PAGE_SIZE
    const res = await client.getJson(PUB_AQUA_SITES_PATH, { query: { range: `${from}-${from + PAGE_SIZE - 1}` } })
    const rows = checkUpstreamShape(client, siteList, res.body, 'the site list')
    for (const row of rows) {
      const site = toSite(row)
      if (site) sites.push(site)
      else skipped++
    }
    if (rows.length < PAGE_SIZE) break
  }
  return { sites, skipped }
}
