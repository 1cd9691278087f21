import type { EntitySearch } from '@allmenning/core'
import { DECISION_ENTITY } from './case-law-upstream.js'
import { parseHrNumber } from './hoyesterett-client.js'

type CaseLawHits = { hits: { title: string; hr_number: string; published: string }[] }
type CaseLaw = { title: string; hr_number: string; published: string }

/**
 * Supreme Court decisions by case number (HR-2024-1234-A, recognisably this source's) or by
 * words, through `get_case_law` and `search_case_law`, so a search shares their cache.
 */
export const lovdataEntitySearch: EntitySearch = {
  recognize: (text) => (parseHrNumber(text) ? 'supreme_court_case_number' : undefined),
  async search(text, ctx) {
    const hrNumber = parseHrNumber(text)
    if (hrNumber) {
      const decision = (await ctx.call('get_case_law', { ref: hrNumber })) as CaseLaw
      return { hits: [{ type: DECISION_ENTITY, id: decision.hr_number, name: decision.title, description: `Høyesterett, ${decision.published}` }] }
    }
    // The search reads whole years of decisions; a word of three letters or more is worth it.
    if (text.trim().length < 3) return { hits: [] }
    const found = (await ctx.call('search_case_law', { query: text.trim().slice(0, 200), limit: ctx.limit })) as CaseLawHits
    return {
      hits: found.hits.map((hit) => ({ type: DECISION_ENTITY, id: hit.hr_number, name: hit.title, description: `Høyesterett, ${hit.published}` })),
    }
  },
}
