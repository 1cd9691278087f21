import { createRequestBudget, type RequestBudget } from '../shared/request-budget.js'

/**
 * The budget every `anleggsregisteret()` source in one process shares by default. The back
 * office publishes no terms; reading the whole register is a hundred-odd pages, so at most 5
 * requests a second, and a page that would wait more than 3 s for its turn is left for the next
 * request to read.
 */
export const anleggsregisteretRequestBudget: RequestBudget = createRequestBudget({
  requests: 5,
  perMs: 1000,
  maxWaitMs: 3000,
})
