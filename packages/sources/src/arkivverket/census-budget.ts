import { UpstreamError } from '@allmenning/core/source'
import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'

/**
 * The budget every `arkivverket()` source in one process shares by default. Digitalarkivet asks
 * crawlers to wait 5 s between requests (robots.txt, `Crawl-delay: 5`), so at most 2 requests in
 * any 10 s: one every 5 s on average, two back to back at most. A call that would wait more than
 * 4 s for its turn is refused at once (with when to try again) rather than queued: with the
 * gateway's 10 s deadline, 4 s of waiting still leaves the call itself 6 s.
 */
export const censusRequestBudget: RequestBudget = createRequestBudget({ requests: 2, perMs: 10_000, maxWaitMs: 4_000 })

/** Hosts that are this machine: a local stand-in (the offline demo, a test's fake), not Digitalarkivet. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/**
 * The budget a call through `client` takes its turn in: the one the source was given, else the
 * process-wide {@link censusRequestBudget}, except for an upstream played on this machine (the
 * offline demo), which is not Digitalarkivet and has no crawl delay to keep. A mirror or proxy on
 * another host keeps the budget.
 *
 * @example
 * const budget = budgetFor(client, options.requestBudget) // undefined: no turn to take
 */
export function budgetFor(
  client: { url(path: string): string },
  given: RequestBudget | undefined,
): RequestBudget | undefined {
  if (given) return given
  return LOOPBACK.has(new URL(client.url('/')).hostname) ? undefined : censusRequestBudget
}

/**
 * Waits for a turn in `budget` before a call to Digitalarkivet, or refuses at once with a 502
 * `upstream_busy` that names the upstream and carries Retry-After (a stale cached answer still
 * stands in for it, as for any upstream failure).
 *
 * @example
 * await takeCensusTurn(censusRequestBudget, client) // then call the census API
 */
export async function takeCensusTurn(
  budget: RequestBudget | undefined,
  upstream: { id: string; name: string },
): Promise<void> {
  if (!budget) return
  try {
    await budget.take(upstream)
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error
    const retryAfterSeconds = error.detail.retryAfterSeconds ?? 5
    throw new UpstreamError(
      upstream,
      'busy',
      `was not called: Digitalarkivet asks for 5 s between requests and the gateway's turns for the next seconds are taken; ` +
        `try again in ${retryAfterSeconds} s (answers already fetched are served from the cache at once)`,
      undefined,
      { retryAfterSeconds },
    )
  }
}
