import { createTimedMemo, UpstreamError, type UpstreamClient } from '@allmenning/core/source'

/** One of NRK's regional offices, and where its news is placed. */
export interface NrkRegion {
  /** The path segment of its pages and feeds: `stor-oslo` in `nrk.no/stor-oslo/siste.rss`. */
  slug: string
  name: string
  /** Counties it covers (2024 numbers). */
  counties: string[]
  /** Its main town, where its news is placed. */
  lat: number
  lon: number
  /** Roughly how far its area reaches from that town, in km: the precision of a place given by region. */
  reachKm: number
}

/**
 * NRK's regional offices by the counties they cover. The slugs are those of NRK's regional
 * pages (seen in links and feeds of 2024–2026: stor-oslo, vestland, trondelag, mr, sorlandet,
 * …); `ostfold` and `buskerud` follow the 2024 county split and are not seen in a capture.
 */
export const NRK_REGIONS: NrkRegion[] = [
  { slug: 'stor-oslo', name: 'NRK Stor-Oslo', counties: ['03', '32'], lat: 59.9133, lon: 10.7389, reachKm: 50 },
  { slug: 'ostfold', name: 'NRK Østfold', counties: ['31'], lat: 59.2181, lon: 10.9298, reachKm: 50 },
  { slug: 'buskerud', name: 'NRK Buskerud', counties: ['33'], lat: 59.7439, lon: 10.2045, reachKm: 120 },
  {
    slug: 'vestfoldogtelemark',
    name: 'NRK Vestfold og Telemark',
    counties: ['39', '40'],
    lat: 59.2096,
    lon: 9.609,
    reachKm: 120,
  },
  { slug: 'innlandet', name: 'NRK Innlandet', counties: ['34'], lat: 60.7945, lon: 11.068, reachKm: 200 },
  { slug: 'sorlandet', name: 'NRK Sørlandet', counties: ['42'], lat: 58.1467, lon: 7.9956, reachKm: 130 },
  { slug: 'rogaland', name: 'NRK Rogaland', counties: ['11'], lat: 58.97, lon: 5.7331, reachKm: 100 },
  { slug: 'vestland', name: 'NRK Vestland', counties: ['46'], lat: 60.3913, lon: 5.3221, reachKm: 200 },
  { slug: 'mr', name: 'NRK Møre og Romsdal', counties: ['15'], lat: 62.4723, lon: 6.1549, reachKm: 130 },
  { slug: 'trondelag', name: 'NRK Trøndelag', counties: ['50'], lat: 63.4305, lon: 10.3951, reachKm: 250 },
  { slug: 'nordland', name: 'NRK Nordland', counties: ['18'], lat: 67.2804, lon: 14.4049, reachKm: 350 },
  {
    slug: 'tromsogfinnmark',
    name: 'NRK Troms og Finnmark',
    counties: ['55', '56'],
    lat: 69.6492,
    lon: 18.9553,
    reachKm: 400,
  },
]

/**
 * The NRK region covering a county, by its number (`03` or `3`).
 *
 * @example
 * regionOfCounty('03')?.slug // 'stor-oslo'
 */
export function regionOfCounty(county: string): NrkRegion | undefined {
  const number = county.padStart(2, '0')
  return NRK_REGIONS.find((r) => r.counties.includes(number))
}

/** One item of a feed, read. */
export interface NrkItem {
  id: string
  title: string
  link: string | null
  summary: string | null
  /** Milliseconds since the epoch. */
  publishedAt: number
  category: string | null
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** Entities decoded, CDATA unwrapped, tags dropped, white space folded. */
function textOf(raw: string | undefined): string | null {
  if (raw === undefined) return null
  const unwrapped = raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
  const decoded = (s: string) =>
    s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      }
      return ENTITIES[name.toLowerCase()] ?? whole
    })
  // A description may carry escaped HTML: decode, drop the tags it had, decode what was inside them.
  const plain = decoded(decoded(unwrapped).replace(/<[^>]*>/g, ' '))
  const folded = plain.replace(/\s+/g, ' ').trim()
  return folded === '' ? null : folded
}

const element = (item: string, name: string) =>
  new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'i').exec(item)?.[1]

/**
 * Reads an RSS 2.0 feed's items. A body that is not an RSS channel is a 502 naming NRK; an
 * item without a title or a readable `pubDate` is left out and counted.
 *
 * @example
 * const { items } = parseNrkFeed(client, xml)
 */
export function parseNrkFeed(
  upstream: { id: string; name: string },
  xml: string,
): { items: NrkItem[]; unreadable: number } {
  if (!/<rss[\s>]/i.test(xml) || !/<channel[\s>]/i.test(xml)) {
    throw new UpstreamError(upstream, 'invalid_response', 'answered something other than an RSS feed')
  }
  const items: NrkItem[] = []
  let unreadable = 0
  for (const match of xml.matchAll(/<item(?:\s[^>]*)?>([\s\S]*?)<\/item>/gi)) {
    const item = match[1]!
    const title = textOf(element(item, 'title'))
    const link = textOf(element(item, 'link'))
    const publishedAt = Date.parse(textOf(element(item, 'pubDate')) ?? '')
    if (!title || !Number.isFinite(publishedAt)) {
      unreadable++
      continue
    }
    const guid = textOf(element(item, 'guid'))
    items.push({
      id: guid ?? link ?? `${title}|${publishedAt}`,
      title,
      link: link && /^https?:\/\//.test(link) ? link : null,
      summary: textOf(element(item, 'description')),
      publishedAt,
      category: textOf(element(item, 'category')),
    })
  }
  return { items, unreadable }
}

/** The path of a region's latest-news feed. */
export const feedPath = (region: NrkRegion) => `/${region.slug}/siste.rss`

/**
 * Regional feeds kept two minutes: NRK publishes a few items an hour per region.
 *
 * @example
 * const feeds = createNrkFeedCache()
 * const { items } = await feeds.read(client, regionOfCounty('03')!)
 */
export function createNrkFeedCache(ttlMs = 120_000) {
  const memo = createTimedMemo<{ items: NrkItem[]; unreadable: number; url: string }>({
    ttlMs,
    errorTtlMs: 15_000,
    maxEntries: 20,
  })
  return {
    read(client: UpstreamClient, region: NrkRegion) {
      return memo.get(region.slug, async () => {
        const response = await client.getText(feedPath(region))
        return { ...parseNrkFeed(client, response.body), url: response.url }
      })
    },
  }
}

/** What {@link createNrkFeedCache} gives. */
export type NrkFeedCache = ReturnType<typeof createNrkFeedCache>
