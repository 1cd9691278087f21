import { GatewayError } from '@allmenning/core'
import {
  isDatasetNotLoaded,
  type EntityHit,
  type EntitySearch,
  type EntitySearchContext,
} from '@allmenning/core/source'
import { DECISION_ENTITY } from './case-law-upstream.js'
import { parseDocumentId } from './document-id.js'
import { buildFtsQuery } from './fts-query.js'
import { parseHrNumber } from './hr-number.js'
import { LAW_ENTITY, REGULATION_ENTITY, SECTION_ENTITY, sectionName } from './rule-entities.js'

type CaseLaw = { title: string; hr_number: string; published: string }
type CaseLawHits = { hits: CaseLaw[] }
type RuleHit = {
  document_id: string
  source: string
  title: string
  title_short: string | null
  legacy_id: string | null
}
type RuleHits = { hits: RuleHit[] }
type Rule = { document_id: string; source: string; title: string; legacy_id: string | null }
type Section = { document_id: string; title: string | null; section: string }

const ruleType = (source: string) => (source === 'regulations' ? REGULATION_ENTITY : LAW_ENTITY)
const ruleHit = (rule: Rule | RuleHit): EntityHit => ({
  type: ruleType(rule.source),
  id: rule.document_id,
  name: rule.title,
  description: rule.legacy_id ?? rule.document_id,
})
const decisionHit = (decision: CaseLaw): EntityHit => ({
  type: DECISION_ENTITY,
  id: decision.hr_number,
  name: decision.title,
  description: `Høyesterett, ${decision.published}`,
})
const sectionHit = (documentId: string, section: string, name: string): EntityHit => ({
  type: SECTION_ENTITY,
  id: `${documentId}/§${section}`,
  name,
  description: documentId,
  linkParameters: { document_id: documentId, section },
})

/** An unknown id: for a search across sources, simply nothing found. */
function notFound(error: unknown): boolean {
  return error instanceof GatewayError && error.status === 404
}

async function orNothing<T>(work: Promise<T>, nothing: T): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (notFound(error)) return nothing
    throw error
  }
}

/** Laws and regulations (and, for "straffeloven § 5a", the section) by id or by words. */
async function searchRules(text: string, ctx: EntitySearchContext): Promise<EntityHit[]> {
  const ref = parseDocumentId(text)
  if (ref) {
    if (ref.section) {
      const section = (await orNothing(
        ctx.call('get_section', { document_id: ref.documentId, section: ref.section }),
        null,
      )) as Section | null
      return section ? [sectionHit(section.document_id, ref.section, sectionName(section.section, section.title))] : []
    }
    const rule = (await orNothing(ctx.call('get_rule', { document_id: ref.documentId, limit: 1 }), null)) as Rule | null
    return rule ? [ruleHit(rule)] : []
  }
  const fts = buildFtsQuery(text)
  if (!fts) return []
  const found = (await orNothing(ctx.call('search_rules', { query: text.slice(0, 500), limit: ctx.limit }), {
    hits: [],
  })) as RuleHits
  const hits: EntityHit[] = []
  // One section named ("straffeloven § 5a"): every rule found has it, so the section itself is the best hit.
  const [only] = fts.sections.length === 1 ? fts.sections : []
  for (const rule of found.hits) {
    if (only) hits.push(sectionHit(rule.document_id, only, `${rule.title_short ?? rule.title} § ${only}`))
    hits.push(ruleHit(rule))
  }
  return hits
}

/**
 * Laws and regulations by id (`LOV-2005-05-20-28`, `lov/2005-05-20-28/§5a`), section
 * reference (`straffeloven § 5a`) or name, through `get_rule`, `get_section` and
 * `search_rules`; Supreme Court decisions by case number (HR-2024-1234-A) or words, through
 * `get_case_law` and `search_case_law`. With the rules not loaded, a question about rules (or
 * words that no decision matches) fails as `dataset_not_loaded`, so coverage says `not_loaded`.
 */
export const lovdataEntitySearch: EntitySearch = {
  recognize: (text) => {
    if (parseHrNumber(text)) return 'supreme_court_case_number'
    if (parseDocumentId(text)) return 'lovdata_document_id'
    if (text.includes('§')) return 'section_reference'
    return undefined
  },
  async search(text, ctx) {
    const hrNumber = parseHrNumber(text)
    if (hrNumber) {
      const decision = (await ctx.call('get_case_law', { ref: hrNumber })) as CaseLaw
      return { hits: [decisionHit(decision)] }
    }
    const trimmed = text.trim()
    // Rules not loaded in this deployment: a question about rules cannot be answered, which
    // coverage must say (not_loaded) rather than "nothing found"; words still search case law.
    let unloaded: GatewayError | undefined
    const rules = await searchRules(trimmed, ctx).catch((error: unknown) => {
      if (!isDatasetNotLoaded(error)) throw error
      unloaded = error
      return []
    })
    // A section reference or an id is a question about rules; case law is searched for words only.
    const aboutRules = trimmed.includes('§') || parseDocumentId(trimmed) !== undefined
    if (aboutRules || rules.length >= ctx.limit || trimmed.length < 3) {
      // The search reads whole years of decisions; a word of three letters or more is worth it.
      if (unloaded) throw unloaded
      return { hits: rules.slice(0, ctx.limit) }
    }
    const found = (await ctx.call('search_case_law', {
      query: trimmed.slice(0, 200),
      limit: ctx.limit - rules.length,
    })) as CaseLawHits
    if (unloaded && found.hits.length === 0) throw unloaded
    return {
      hits: [...rules, ...found.hits.map(decisionHit)],
    }
  },
}
