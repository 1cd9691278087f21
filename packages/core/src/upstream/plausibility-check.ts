import { UpstreamError } from '../http/upstream-error.js'

/**
 * Judges a value an upstream sent before it is remembered as truth: returns the error to
 * answer instead (a 502 naming the upstream) when the value is implausible, such as an empty
 * or cut-down reference list, or `undefined` when it may be kept. `previous` is the last value
 * that passed, if any, so that a sudden collapse can be told from a small but real list.
 *
 * @example
 * const check: PlausibilityCheck<string[]> = (names) =>
 *   names.length > 0 ? undefined : new UpstreamError(upstream, 'invalid_response', 'sent an empty name list')
 */
export type PlausibilityCheck<V> = (value: V, previous: V | undefined) => UpstreamError | undefined

/** What {@link listSizeCheck} counts and how much it expects. */
export interface ListSizeRule<V> {
  /** The upstream to name in the 502; a function when the value says which upstream it came from. */
  upstream: { id: string; name: string } | ((value: V) => { id: string; name: string })
  /** What the list is, for the message: `'airport-name list'`. */
  what: string
  /** Items in the value. */
  count: (value: V) => number
  /** Fewest items a real answer ever has; 1 (the default) refuses only an empty list. */
  minimum?: number
  /**
   * Share of the last good list's items a new list must keep, 0.5 by default: a list that
   * lost more than half of its items overnight was cut short, not edited. 0 turns this off.
   */
  keepShare?: number
}

/**
 * A {@link PlausibilityCheck} for reference lists: refuses a list with fewer than `minimum`
 * items, or one that shrank below `keepShare` of the last good list. Upstreams that fail
 * quietly answer 200 with an empty or partial list; remembered, such a list would make every
 * lookup answer "not found" for as long as the list is kept.
 *
 * @example
 * createTimedMemo<Map<string, string>>({
 *   ttlMs: 86_400_000,
 *   plausible: listSizeCheck({ upstream: avinorApi, what: 'airport-name list', count: (names) => names.size, minimum: 30 }),
 * })
 */
export function listSizeCheck<V>(rule: ListSizeRule<V>): PlausibilityCheck<V> {
  const minimum = Math.max(1, rule.minimum ?? 1)
  const keepShare = rule.keepShare ?? 0.5
  return (value, previous) => {
    const items = rule.count(value)
    const before = previous === undefined ? undefined : rule.count(previous)
    let expected: string | undefined
    if (items < minimum) expected = minimum === 1 ? 'at least one' : `at least ${minimum}`
    else if (before !== undefined && items < before * keepShare) expected = `${before} in the last good one`
    if (expected === undefined) return undefined
    const upstream = typeof rule.upstream === 'function' ? rule.upstream(value) : rule.upstream
    return new UpstreamError(
      upstream,
      'invalid_response',
      `sent an implausible ${rule.what} (${items} ${items === 1 ? 'item' : 'items'}, ${expected} expected); it is not kept and is asked for again shortly`,
    )
  }
}
