import type { PageWindow } from '../plugin/define-operation.js'

/** `_meta.pagination` on list results. */
export interface Pagination {
  limit: number
  offset: number
  returned: number
  has_more_results: boolean
  /** How many items there are in all, when known. */
  total?: number
}

/**
 * Applies the page window to an operation's data. A list is sliced here unless the
 * operation paged the upstream itself (`page` given); anything else is not a list and
 * gets no pagination.
 *
 * @example
 * paginate([1, 2, 3], { limit: 2, offset: 0 }) // { data: [1, 2], pagination: { returned: 2, has_more_results: true, total: 3, ... } }
 */
export function paginate(
  data: unknown,
  window: PageWindow,
  page?: { hasMore: boolean; total?: number },
): { data: unknown; pagination?: Pagination } {
  if (!Array.isArray(data)) return { data }
  if (page) {
    return {
      data,
      pagination: {
        limit: window.limit,
        offset: window.offset,
        returned: data.length,
        has_more_results: page.hasMore,
        ...(page.total !== undefined ? { total: page.total } : {}),
      },
    }
  }
  const slice = data.slice(window.offset, window.offset + window.limit)
  return {
    data: slice,
    pagination: {
      limit: window.limit,
      offset: window.offset,
      returned: slice.length,
      has_more_results: window.offset + slice.length < data.length,
      total: data.length,
    },
  }
}
