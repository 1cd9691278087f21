import type { EntityHit, EntitySearch } from '@allmenning/core/source'

type SiteRow = {
  heritage_site_id: number | null
  navn: string | null
  art: string | null
  kommune: string | null
  lat: number | null
  lon: number | null
}
type MuseumRow = { owner: string; name: string | null }

/**
 * Heritage sites by name, through `search_heritage_sites` (one question to Riksantikvaren, its
 * text matched in names and descriptions), and museums by name or code, through `list_museums`
 * (DigitaltMuseum's list, kept a day). A deployment without a DigitaltMuseum key still finds
 * the heritage sites: the museums' failure is left out, not the whole search.
 */
export const kulturarvEntitySearch: EntitySearch = {
  async search(text, ctx) {
    const query = text.trim().slice(0, 100)
    if (query.length < 2) return { hits: [] }
    const [sites, museums] = await Promise.all([
      ctx.call('search_heritage_sites', { query, limit: Math.max(ctx.limit * 3, 10), one_per_site: true }) as Promise<{
        sites: SiteRow[]
      }>,
      (ctx.call('list_museums', { query, limit: ctx.limit }) as Promise<{ museums: MuseumRow[] }>).catch(() => ({
        museums: [],
      })),
    ])
    const siteHits: EntityHit[] = sites.sites
      .filter((s) => s.heritage_site_id !== null && s.navn)
      .map((s) => ({
        type: 'heritage_site',
        id: String(s.heritage_site_id),
        name: s.navn!,
        description: ['Heritage site (Askeladden)', s.art, s.kommune].filter(Boolean).join(', '),
        linkParameters: { query: s.navn!, one_per_site: 'true' },
        ...(s.lat !== null && s.lon !== null ? { lat: s.lat, lon: s.lon } : {}),
      }))
    const museumHits: EntityHit[] = museums.museums.map((m) => ({
      type: 'museum',
      id: m.owner,
      name: m.name ?? m.owner,
      description: `Museum in DigitaltMuseum (owner ${m.owner})`,
    }))
    const hits = [...museumHits, ...siteHits].slice(0, ctx.limit)
    return { hits, matched: museumHits.length + siteHits.length }
  },
}
