import type { UpstreamClient } from '@allmenning/core/source'
import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'
import { enturClientName } from './client-name.js'

/**
 * The budget Entur calls of every `entur()` source in one process share. Entur publishes no
 * number, but limits each client name; ten a second with at most two seconds of waiting keeps
 * a burst of cache misses polite, and Entur's own 429 with Retry-After rests the upstream.
 */
export const enturRequestBudget: RequestBudget = createRequestBudget({ requests: 10, perMs: 1000, maxWaitMs: 2000 })

/** How one `entur()` source reaches Entur: its budget and the client name it sends. */
export interface EnturAccess {
  budget: RequestBudget
  /** The configured name, or undefined to derive it from the gateway's User-Agent. */
  clientName: string | undefined
}

/**
 * Waits for a turn in the budget and gives the headers Entur asks for on every call.
 *
 * @example
 * const headers = await enturTurn(access, ctx.upstream(enturGeocoder)) // { 'ET-Client-Name': 'example.no-allmenning' }
 */
export async function enturTurn(access: EnturAccess, client: UpstreamClient): Promise<Record<string, string>> {
  await access.budget.take(client)
  return { 'ET-Client-Name': access.clientName ?? enturClientName(client.userAgent) }
}
