import type { UpstreamClient, QueryValues } from '@allmenning/core/source'
import { brregHeaders, type BrregResource } from './brreg-upstream.js'
import { brregSearchPageSchema, parseBrreg, type BrregUnit } from './brreg-payloads.js'
import { BRREG_MAX_DEPTH, planPages } from './page-mapping.js'

/** One paged collection of Enhetsregisteret. */
export interface BrregCollection {
  /** `/enheter` or `/underenheter`. */
  path: string
  /** The key under `_embedded`, and the media type asked for. */
  resource: Extract<BrregResource, 'enhet' | 'underenhet'>
  /** Search filters (`navn`, `overordnetEnhet`, ...), without `page` and `size`. */
  query: QueryValues
}

/** Rows `[start, end)` of a collection, and what Brønnøysund said about all of it. */
export interface BrregWindow {
  rows: BrregUnit[]
  /** `page.totalElements`: every match, also those beyond the depth limit. */
  total: number
  /** The first URL called: the one that answered the window's first row. */
  url: string
}

const embeddedKey = { enhet: 'enheter', underenhet: 'underenheter' } as const

/**
 * Fetches the rows `[start, end)` of a Brønnøysund search through as few `page`/`size` calls as
 * {@link planPages} allows. Rows past {@link BRREG_MAX_DEPTH} cannot be reached, so the window is
 * cut there; an empty window still makes one small call, because the caller needs the total.
 *
 * @example
 * const { rows, total } = await fetchWindow(ctx.upstream(brreg),
 *   { path: '/underenheter', resource: 'underenhet', query: { overordnetEnhet: '912346021' } }, 30, 55)
 */
export async function fetchWindow(
  client: UpstreamClient,
  collection: BrregCollection,
  start: number,
  end: number,
): Promise<BrregWindow> {
  const reachableEnd = Math.min(end, BRREG_MAX_DEPTH)
  const empty = reachableEnd <= start
  const plan = empty ? { size: 1, firstPage: 0, lastPage: 0, skip: 0 } : planPages(start, reachableEnd)
  const rows: BrregUnit[] = []
  let total = 0
  let url = ''
  for (let page = plan.firstPage; page <= plan.lastPage; page++) {
    const res = await client.getJson<unknown>(collection.path, {
      query: { ...collection.query, page, size: plan.size },
      headers: brregHeaders(collection.resource),
    })
    const body = parseBrreg(brregSearchPageSchema, res.body, client, 'a search page')
    const items = body._embedded?.[embeddedKey[collection.resource]] ?? []
    if (page === plan.firstPage) {
      total = body.page.totalElements
      url = res.url
    }
    rows.push(...items)
    // A short page is the last one; asking for the next would only return an empty page.
    if (items.length < plan.size || (page + 1) * plan.size >= body.page.totalElements) break
  }
  return { rows: empty ? [] : rows.slice(plan.skip, plan.skip + (reachableEnd - start)), total, url }
}
