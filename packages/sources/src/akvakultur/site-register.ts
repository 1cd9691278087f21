import { createTimedMemo, listSizeCheck, type OperationContext, type UpstreamDefinition } from '@allmenning/core/source'
import type { AquacultureSite } from './aquaculture-site.js'
import { arcgisSitesQuery, ARCGIS_SITES_PATH, fetchArcgisSites } from './arcgis-sites.js'
import { fiskeridirAqua, fiskeridirGis } from './fiskeridir-upstreams.js'
import { fetchPubAquaSites, PUB_AQUA_SITES_PATH } from './pub-aqua-sites.js'

/** Every site of the register, and where the list came from. */
export interface SiteRegister {
  sites: AquacultureSite[]
  /** Sites left out for want of a usable position. */
  skipped: number
  /** The upstream the list came from. */
  upstream: UpstreamDefinition
  /** The URL the list is read from, for `_provenance`. */
  sourceApi: string
}

/** The register changes by a few sites a week: one load a day, an old copy for a week if reloads fail. */
const DAY_MS = 86_400_000

/**
 * The whole register, loaded once a day per source instance: from map layer 0 (one or two
 * calls), or, when that layer is empty, as one public client reported it to be, from the
 * register API (about 18 calls of 100 sites).
 *
 * @example
 * const register = createSiteRegister()
 * const { sites } = await register.get(ctx)
 */
export function createSiteRegister() {
  const memo = createTimedMemo<SiteRegister>({
    ttlMs: DAY_MS,
    staleMs: 7 * DAY_MS,
    errorTtlMs: 60_000,
    maxEntries: 1,
    // The register holds some 1 800 sites. An empty list from both services, or one that lost
    // more than half of the last good one, was cut short; kept, it would answer "no fish farms"
    // along the whole coast for a day. The 502 names the service the list came from.
    plausible: listSizeCheck({
      upstream: (register) => register.upstream,
      what: 'site register',
      count: (register) => register.sites.length,
    }),
  })

  async function load(ctx: OperationContext): Promise<SiteRegister> {
    const gis = ctx.upstream(fiskeridirGis)
    const fromMap = await fetchArcgisSites(gis)
    if (fromMap.sites.length > 0 || fromMap.skipped > 0) {
      return { ...fromMap, upstream: fiskeridirGis, sourceApi: gis.url(ARCGIS_SITES_PATH, arcgisSitesQuery()) }
    }
    const aqua = ctx.upstream(fiskeridirAqua)
    const fromRegister = await fetchPubAquaSites(aqua)
    return { ...fromRegister, upstream: fiskeridirAqua, sourceApi: aqua.url(PUB_AQUA_SITES_PATH) }
  }

  return {
    async get(ctx: OperationContext): Promise<SiteRegister> {
      const register = await memo.get('norway', () => load(ctx))
      // Credit the service the (possibly memoized) list came from.
      ctx.upstream(register.upstream)
      return register
    },
  }
}

/** The memoized register of one `akvakultur()` source. */
export type SiteRegisterCache = ReturnType<typeof createSiteRegister>
