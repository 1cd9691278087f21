/** Brønnøysund refuses searches deeper than this many rows (page × size). */
export const BRREG_MAX_DEPTH = 10_000

/**
 * Largest page size asked for. Brønnøysund documents no maximum; 100 keeps single answers
 * small and is what most of its clients use.
 */
export const BRREG_MAX_PAGE_SIZE = 100

/** Which upstream pages to fetch for one gateway window, and where the window starts in them. */
export interface PagePlan {
  /** The `size` query value for every call. */
  size: number
  /** The first `page` value (0-based); pages `firstPage..lastPage` are fetched in order. */
  firstPage: number
  lastPage: number
  /** Rows to drop from the start of `firstPage` so the result begins at the window's start. */
  skip: number
}

/** Tunables of {@link planPages}; the defaults are Brønnøysund's. */
export interface PagePlanLimits {
  maxSize?: number
  maxDepth?: number
}

/**
 * Maps the gateway's row window `[start, end)` onto Brønnøysund's `page`/`size` paging
 * without losing or repeating a row, for any start, including one that is not a multiple of
 * the window length.
 *
 * Every page size from 1 to `maxSize` is tried; a size is allowed when every page it needs
 * ends within the depth limit (`(page + 1) × size ≤ maxDepth`, which is stricter than
 * Brønnøysund's `page × size ≤ 10 000` and so holds whichever way the service counts). Of the
 * allowed sizes the one needing the fewest calls wins. Among those, pages of `maxSize` win:
 * they are the same upstream pages for every window inside them, so a client paging 20 or 50
 * rows at a time is served from one upstream answer per 100 rows while it is fresh (the
 * gateway shares upstream answers between its calls). Otherwise the size fetching the fewest
 * rows wins. Away from the depth limit a size of at least the window length needs at most two
 * calls, and often one does: offset 90, limit 20 becomes page 4 of size 22.
 *
 * @throws RangeError when the window is empty, negative or reaches past `maxDepth`.
 * @example
 * planPages(10, 35) // { size: 100, firstPage: 0, lastPage: 0, skip: 10 }: the page rows 0–99 share
 * planPages(200, 300) // { size: 100, firstPage: 2, lastPage: 2, skip: 0 }
 * planPages(90, 110) // { size: 22, firstPage: 4, lastPage: 4, skip: 2 }: one call, where pages of 100 need two
 */
export function planPages(start: number, end: number, limits: PagePlanLimits = {}): PagePlan {
  const maxSize = limits.maxSize ?? BRREG_MAX_PAGE_SIZE
  const maxDepth = limits.maxDepth ?? BRREG_MAX_DEPTH
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start || end > maxDepth) {
    throw new RangeError(`Cannot page the window [${start}, ${end}) within depth ${maxDepth}`)
  }
  let best: (PagePlan & { calls: number; rows: number; shared: boolean }) | undefined
  for (let size = 1; size <= maxSize; size++) {
    const firstPage = Math.floor(start / size)
    const lastPage = Math.floor((end - 1) / size)
    if ((lastPage + 1) * size > maxDepth) continue
    const calls = lastPage - firstPage + 1
    const rows = calls * size
    const shared = size === maxSize
    const better =
      !best ||
      calls < best.calls ||
      (calls === best.calls && shared && !best.shared) ||
      (calls === best.calls && shared === best.shared && rows < best.rows)
    if (better) best = { size, firstPage, lastPage, skip: start - firstPage * size, calls, rows, shared }
  }
  // Size 1 always fits because end ≤ maxDepth, so `best` is set.
  const { size, firstPage, lastPage, skip } = best as PagePlan
  return { size, firstPage, lastPage, skip }
}
