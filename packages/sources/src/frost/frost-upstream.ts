import { defineUpstream } from '@allmenning/core/source'
import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'

/**
 * MET Norway's Frost API: weather stations (`/sources`) and their observations. Every call
 * needs a client id, sent as the user of HTTP Basic with an empty password; MET gives one
 * for free at frost.met.no. The licence (CC BY 3.0 NO until now) is named in every answer.
 */
export const frostApi = defineUpstream({
  id: 'frost',
  name: 'MET Norway Frost',
  baseUrl: 'https://frost.met.no',
  publisher: 'MET Norway (Meteorologisk institutt)',
  license: 'CC BY 3.0 NO',
  // The whole list of stations in use is read at once, about a megabyte and a half of JSON-LD.
  maxBodyBytes: 16 * 1024 * 1024,
  timeoutMs: 20_000,
})

/** The variable `builtInSources` reads the Frost client id from. */
export const FROST_CLIENT_ID_VARIABLE = 'ALLMENNING_FROST_CLIENT_ID'

/**
 * The budget every `frost()` source in one process shares by default: Frost's terms count more
 * than one request a second on average as heavy use, so at most 60 in any minute (a burst is
 * allowed, the average kept), and a call that would wait more than 5 s for its turn is refused (a
 * 502 naming Frost, so a stale cached answer can stand in) instead of queued.
 */
export const frostRequestBudget: RequestBudget = createRequestBudget({ requests: 60, perMs: 60_000, maxWaitMs: 5000 })

/**
 * The `Authorization` header Frost asks for: HTTP Basic, the client id as user, no password.
 *
 * @example
 * frostAuthorization('abc') // 'Basic YWJjOg=='
 */
export function frostAuthorization(clientId: string): string {
  return `Basic ${Buffer.from(`${clientId}:`, 'utf8').toString('base64')}`
}
