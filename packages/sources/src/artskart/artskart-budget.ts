import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'

/**
 * The budget every `artskart()` source in one process shares by default: Artskart publishes
 * no rate limit and asks to be used reasonably, so at most 4 requests a second, and a call that
 * would wait more than 5 s for its turn is refused (a 502 naming Artskart) instead of queued.
 */
export const artskartRequestBudget: RequestBudget = createRequestBudget({ requests: 4, perMs: 1000, maxWaitMs: 5000 })
