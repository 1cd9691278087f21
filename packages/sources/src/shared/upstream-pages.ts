import { GatewayError } from '@allmenning/core'
import type { PageWindow } from '@allmenning/core/source'

/** One page of an upstream that pages by page number and page size. */
export interface UpstreamPage<T> {
  items: T[]
  /** The upstream's count of all hits, when it gives one. */
  total: number | undefined
}

/** How an upstream numbers its pages. */
export interface PageNumbering {
  /** Number of the first page: 0 for Kartverket's address API, 1 for its place-name API and SSB's tables. */
  first: 0 | 1
  /** Highest page number the upstream serves, when it has a limit. */
  last?: number
}

/**
 * The items `[offset, offset + limit)` of an upstream that pages by page number and size
 * (Kartverket's `side` and `treffPerSide`, SSB's `pageNumber` and `pageSize`). A window on page
 * boundaries (offset a multiple of limit, as clients page) is one call; any other window is the
 * two pages it straddles. The result carries `hasMore` and the upstream's total for
 * `_meta.pagination`.
 *
 * @example
 * await fetchWindow({ limit: 25, offset: 50 }, { first: 0 }, (page, size) => addresses.page(page, size))
 * // one call, side=2 & treffPerSide=25
 */
export async function fetchWindow<T>(
  window: PageWindow,
  numbering: PageNumbering,
  fetchPage: (page: number, size: number) => Promise<UpstreamPage<T>>,
): Promise<{ items: T[]; page: { hasMore: boolean; total?: number } }> {
  const size = window.limit
  const index = Math.floor(window.offset / size)
  const skip = window.offset - index * size
  const lastIndex = skip === 0 ? index : index + 1
  if (numbering.last !== undefined && numbering.first + lastIndex > numbering.last) {
    const deepest = (numbering.last - numbering.first + 1) * size
    const problem = `must leave offset + limit at most ${deepest} with limit ${size} (the deepest the upstream pages)`
    throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: offset ${problem}`, {
      details: [{ parameter: 'offset', problem, rule: 'max_value' }],
    })
  }
  const first = await fetchPage(numbering.first + index, size)
  let items = first.items
  let lastPageFull = first.items.length === size
  // The second page is needed only when the window straddles two pages and the first was full.
  if (skip > 0 && lastPageFull) {
    const second = await fetchPage(numbering.first + index + 1, size)
    items = items.concat(second.items)
    lastPageFull = second.items.length === size
  }
  const slice = items.slice(skip, skip + size)
  const total = first.total
  // Without a total, hits past the window, or a full last page, are the only sign of more.
  const hasMore =
    total !== undefined ? window.offset + slice.length < total : items.length > skip + size || lastPageFull
  return { items: slice, page: { hasMore, ...(total !== undefined ? { total } : {}) } }
}
