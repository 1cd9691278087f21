import type { Paging } from '../compile/compile-source.js'
import type { PageWindow } from '../plugin/define-operation.js'

/** `_meta.pagination` on list results. */
export interface Pagination {
  limit: number
  offset: number
  returned: number
  has_more_results: boolean
  /** The `offset` of the next page, or null on the last one: clients page with it, not with arithmetic. */
  next_offset: number | null
  /** How many items there are in all, when known. */
  total?: number
}

const nextOffset = (window: PageWindow, returned: number, hasMore: boolean) =>
  hasMore ? window.offset + returned : null

function page(
  list: unknown[],
  window: PageWindow,
  paged?: { hasMore: boolean; total?: number },
): { list: unknown[]; pagination: Pagination } {
  if (paged) {
    const total = paged.total !== undefined ? { total: paged.total } : {}
    return {
      list,
      pagination: {
        limit: window.limit,
        offset: window.offset,
        returned: list.length,
        has_more_results: paged.hasMore,
        next_offset: nextOffset(window, list.length, paged.hasMore),
        ...total,
      },
    }
  }
  const slice = list.slice(window.offset, window.offset + window.limit)
  const hasMore = window.offset + slice.length < list.length
  return {
    list: slice,
    pagination: {
      limit: window.limit,
      offset: window.offset,
      returned: slice.length,
      has_more_results: hasMore,
      next_offset: nextOffset(window, slice.length, hasMore),
      total: list.length,
    },
  }
}

/**
 * Applies the page window to an operation's list: `data` itself, or the named field of an
 * object (which then also gets `has_more_results`, where clients of the public gateway read
 * it). The list is sliced here unless the operation paged the upstream itself (`paged`).
 *
 * @example
 * paginate([1, 2, 3], { limit: 2, offset: 0 }, { kind: 'data' }) // { data: [1, 2], pagination: { returned: 2, has_more_results: true, total: 3, ... } }
 * paginate({ flights: [1, 2, 3] }, { limit: 2, offset: 0 }, { kind: 'field', field: 'flights' }).data
 * // { flights: [1, 2], has_more_results: true }
 */
export function paginate(
  data: unknown,
  window: PageWindow,
  paging: Paging,
  paged?: { hasMore: boolean; total?: number },
): { data: unknown; pagination?: Pagination } {
  if (paging.kind === 'data' && Array.isArray(data)) {
    const { list, pagination } = page(data, window, paged)
    return { data: list, pagination }
  }
  if (paging.kind === 'field' && data !== null && typeof data === 'object') {
    const object = data as Record<string, unknown>
    const items = object[paging.field]
    if (!Array.isArray(items)) throw new TypeError(`data.${paging.field} is not a list`)
    const { list, pagination } = page(items, window, paged)
    return { data: { ...object, [paging.field]: list, has_more_results: pagination.has_more_results }, pagination }
  }
  return { data }
}
