import * as v from 'valibot'
import { ruleHeaderFields } from './rule-header.js'
import { defineOperation, GatewayError, type DatasetReader } from '@allmenning/core'
import { buildFtsQuery } from './fts-query.js'
import { dataUpdated } from './rule-lookup.js'
import { RULE_DATASETS, ruleSourceOf, type DocumentRow, type RuleSource } from './rule-datasets.js'
import { ruleEntity } from './rule-entities.js'

/** `data` of `search_rules`. */
export const searchRulesOutput = v.object({
  data_updated: v.string(),
  total: v.number(),
  hits: v.array(
    v.object(ruleHeaderFields),
  ),
  hint: v.string(),
})

const TITLE_COLUMNS = ['short_names', 'title_short', 'title']
const TEXT_COLUMNS = [...TITLE_COLUMNS, 'body']
/** Deepest hit a page may reach: each collection is ranked to offset + limit before the two are merged. */
const MAX_DEPTH = 1000

type Ranked = DocumentRow & { _rank: number }

/**
 * `search_rules`: laws and central regulations in force whose titles (or, with
 * `full_text=yes`, text) match every word; a section reference (`§ 5a`, `§§ 3-1 til 3-3`)
 * keeps the rules that have such a section. Ranked by SQLite FTS5's bm25 with the names a law
 * goes by weighted highest, so "straffeloven" finds Straffeloven first.
 *
 * @example
 * await searchRules.run({ query: 'aksjeloven', full_text: false, limit: 20, offset: 0 }, ctx)
 */
export const searchRules = defineOperation({
  name: 'search_rules',
  description:
    'Search Norwegian laws and central regulations in force (Lovdata’s public data) by title, or with full_text=yes by their ' +
    'text too. Every word must match; “§ 5a” or “§§ 3-1 til 3-3” keeps rules that have those sections. source=laws or ' +
    'source=regulations searches one collection. A law whose short title matches (“straffeloven”) ranks first.',
  parameters: {
    query: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(500, 'must be at most 500 characters'), v.description('Words, a title, or a section reference such as § 5a')),
    source: v.optional(v.pipe(v.picklist(['laws', 'regulations'], 'must be laws or regulations'), v.description('laws or regulations; both when absent'))),
    full_text: v.optional(v.pipe(v.boolean(), v.description('Search the text of the sections too, not only titles')), false),
  },
  limit: { default: 20, max: 100 },
  output: searchRulesOutput,
  list: 'hits',
  canonicalFieldAliases: { name: ['hits[].title'] },
  async run(params, ctx) {
    const fts = buildFtsQuery(params.query, { columns: params.full_text ? TEXT_COLUMNS : TITLE_COLUMNS, sectionColumn: 'section_keys' })
    if (!fts) {
      const problem = 'must hold a word or a section number to search for'
      throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: query ${problem}`, { details: [{ parameter: 'query', problem, rule: 'format' }] })
    }
    if (params.offset + params.limit > MAX_DEPTH) {
      const problem = `must leave offset + limit at most ${MAX_DEPTH}; narrow the query instead`
      throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: offset ${problem}`, { details: [{ parameter: 'offset', problem, rule: 'max_value' }] })
    }
    const sources: RuleSource[] = params.source ? [params.source] : ['laws', 'regulations']
    // Every collection asked for must be loaded: a search that silently left one out would mislead.
    const readers: DatasetReader[] = sources.map((source) => ctx.dataset(RULE_DATASETS[source]))
    // A law called exactly what was typed ("straffeloven", "aksjeloven") comes first whatever bm25
    // makes of the laws that amend or cite it: those few are found first, then the rest by score.
    const typed = fts.words.join(' ')
    const byRank = (a: Ranked, b: Ranked) => a._rank - b._rank
    const named = typed
      ? (await Promise.all(readers.map((reader) => reader.search<Ranked>('documents', { match: fts.match, where: { short_key: typed }, limit: 20 }))))
          .flatMap((result) => result.rows)
          .sort(byRank)
      : []
    const first = new Set(named.map((row) => row.document_id))
    const found = await Promise.all(
      readers.map((reader) => reader.search<Ranked>('documents', { match: fts.match, limit: params.offset + params.limit + first.size })),
    )
    const total = found.reduce((sum, result) => sum + result.total, 0)
    const merged = [...named, ...found.flatMap((result) => result.rows).filter((row) => !first.has(row.document_id)).sort(byRank)]
    const page = merged.slice(params.offset, params.offset + params.limit)
    const section = fts.sections[0]
    const hint = section
      ? `Call get_section with a hit's document_id and section=${section} for the text of § ${section}; get_rule lists every section.`
      : 'Call get_rule with a hit’s document_id for its sections, and get_section with document_id and section (such as § 5a) for one section’s text.'
    return {
      data: {
        data_updated: dataUpdated(readers.map((reader) => reader.version)),
        total,
        hits: page.map((row) => ({
          document_id: row.document_id,
          source: ruleSourceOf(row.kind),
          legacy_id: row.legacy_id,
          title: row.title,
          title_short: row.title_short,
          ministry: row.ministry,
          in_force_from: row.in_force_from,
          last_change_in_force: row.last_change_in_force,
        })),
        hint,
      },
      page: { hasMore: params.offset + page.length < total, total },
    }
  },
  entities: (data) => data.hits.map(ruleEntity),
})
