import { createGetCaseLaw } from './get-case-law.js'
import { createHoyesterettClient } from './hoyesterett-client.js'
import { createListCaseLaw } from './list-case-law.js'
import { createSearchCaseLaw } from './search-case-law.js'
import { getRule } from './get-rule.js'
import { getSection } from './get-section.js'
import { searchRules } from './search-rules.js'

/**
 * Lovdata's operations, keyed as the source's outline reads them: loaded when a request first
 * reads them. The case-law operations share one cache of domstol.no, the one this call creates.
 */
export function lovdataOperations(now: () => Date) {
  const hoyesterett = createHoyesterettClient()
  return {
    searchRules,
    getRule,
    getSection,
    searchCaseLaw: createSearchCaseLaw(hoyesterett, now),
    listCaseLaw: createListCaseLaw(hoyesterett),
    getCaseLaw: createGetCaseLaw(hoyesterett),
  }
}
