import { GatewayError } from '@allmenning/core'

/** Largest page the source asks Digitalarkivet for (its own limit is not documented). */
export const MAX_UPSTREAM_PAGE = 500

/** One upstream page (`limit`, `page` from 1) that holds a window of `limit` hits from `offset`, and where the window starts in it. */
export interface UpstreamPageWindow {
  size: number
  page: number
  skip: number
}

/**
 * The one upstream page that holds the hits `[offset, offset + limit)`: Digitalarkivet pages by
 * `page` and `limit`, and each call costs 5 s of its crawl delay, so a window is always read in
 * one call. On page boundaries (offset a multiple of limit, as clients page) that is the page
 * itself; any other window is read from the smallest larger page that holds it whole.
 *
 * @example
 * upstreamPageFor(100, 50) // { size: 50, page: 3, skip: 0 }
 * upstreamPageFor(10, 50) // { size: 60, page: 1, skip: 10 }
 */
export function upstreamPageFor(offset: number, limit: number): UpstreamPageWindow {
  for (let size = limit; size <= MAX_UPSTREAM_PAGE; size++) {
    const index = Math.floor(offset / size)
    if (offset + limit <= (index + 1) * size) return { size, page: index + 1, skip: offset - index * size }
  }
  const problem = `must be a multiple of limit (${limit}), or leave the window within one page of at most ${MAX_UPSTREAM_PAGE} hits`
  throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: offset ${problem}`, {
    details: [{ parameter: 'offset', problem, rule: 'format' }],
  })
}
