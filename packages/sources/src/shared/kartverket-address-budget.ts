import { createRequestBudget, type RequestBudget } from './request-budget.js'

/**
 * The budget the built-in sources' bulk lookups in Kartverket's address API (the geocoding of
 * `firmafakta/finn_selskaper_i_omrade`) share in one process: at most 20 requests per second,
 * a wait of at most 1.5 s for a turn. Kartverket publishes no request limit for
 * ws.geonorge.no (none was found in its documentation or terms; the data is CC BY 4.0); this
 * keeps a gateway's bursts modest, as a courtesy to a free service.
 */
export const kartverketAddressBudget: RequestBudget = createRequestBudget({
  requests: 20,
  perMs: 1000,
  maxWaitMs: 1500,
})
