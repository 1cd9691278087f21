import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'

/**
 * The budget every `utdanning()` source in one process shares by default for Udir's two
 * registers. Udir publishes no limit; positions are only in each unit's own record, so filling
 * them takes one call a unit: at most 10 requests a second, and a call that would wait more
 * than 2 s for its turn is left for a later request.
 */
export const udirRequestBudget: RequestBudget = createRequestBudget({ requests: 10, perMs: 1000, maxWaitMs: 2000 })
