import * as v from 'valibot'
import { ruleHeaderFields } from './rule-header.js'
import { GatewayError } from '@allmenning/core'
import { defineOperation, isDatasetNotLoaded, type DatasetReader } from '@allmenning/core/source'
import { buildFtsQuery, type FtsQuery } from './fts-query.js'
import { dataUpdated, DOCUMENT_COLUMNS } from './rule-lookup.js'
import { RULE_DATASETS, ruleSourceOf, type RuleSource } from './rule-datasets.js'
import { sectionToken, type DocumentRow } from './rule-rows.js'
import { ruleEntity, sectionEntity } from './rule-entities.js'
import { matchedSections, type MatchedSection } from './heading-match.js'

/** `data` of `search_rules`. */
export const searchRulesOutput = v.object({
  data_updated: v.string(),
  total: v.number(),
  hits: v.array(
    v.object({
      ...ruleHeaderFields,
      /** Present when the rule was found by a heading and not by its titles. */
      matched_section: v.optional(
        v.object({ section: v.string(), title: v.nullable(v.string()), chapter: v.nullable(v.string()) }),
      ),
    }),
  ),
  hint: v.string(),
})

const TITLE_COLUMNS = ['short_names', 'title_short', 'title']
/** Deepest hit a page may reach: each collection is ranked to offset + limit before the two are merged. */
const MAX_DEPTH = 1000
/**
 * Most text matches a collection ranks by bm25. Scoring a match reads every place its words
 * occur, so a word in most documents ("og", "skal") would cost tens of milliseconds, and bm25
 * gives such a word almost no weight anyway. Above this, the text matches follow the title
 * matches in the order Lovdata's archive lists them.
 */
const MAX_SCORED = 300
/** With full_text=yes, words this long or longer also match as a beginning (`aksjelov` finds `aksjeloven`); shorter ones whole. */
const TEXT_MIN_PREFIX = 6
/** The columns a hit is answered with. */
const HIT_COLUMNS = [...DOCUMENT_COLUMNS, 'short_key']

/** A hit: its tier (-1 named exactly, 0 a title match, 1 a heading match, 2 a text match), then its rank within the tier. */
type Ranked = DocumentRow & { _rank: number; _tier: number }

/**
 * The query for the titles index (documents), and the one for the headings and text indexes,
 * whose bodies start with the titles (so every word may match in the titles or there).
 */
interface RuleQueries {
  titles: FtsQuery
  text: FtsQuery
}

const byTierAndRank = (a: Ranked, b: Ranked) => a._tier - b._tier || a._rank - b._rank

/**
 * The rules whose short title is exactly the words typed; when the query also names sections
 * or phrases, only those its index confirms.
 */
async function namedRules(
  reader: DatasetReader,
  typed: string,
  queries: RuleQueries,
  fullText: boolean,
): Promise<Ranked[]> {
  const candidates = await reader.select<DocumentRow>('documents', {
    where: { short_key: typed },
    columns: HIT_COLUMNS,
    limit: 20,
  })
  if (candidates.length === 0) return []
  const named = candidates.map((row) => ({ ...row, _rank: 0, _tier: -1 }))
  if (queries.titles.sections.length === 0 && queries.titles.phrases.length === 0) return named
  const where = { document_id: { in: candidates.map((row) => row.document_id) } }
  const confirmed = fullText
    ? await reader.search<{ document_id: string }>('texts', {
        match: queries.text.match,
        where,
        columns: ['document_id'],
        limit: 20,
      })
    : await reader.search<{ document_id: string }>('documents', {
        match: queries.titles.match,
        where,
        columns: ['document_id'],
        limit: 20,
      })
  const ids = new Set(confirmed.rows.map((row) => row.document_id))
  return named.filter((row) => ids.has(row.document_id))
}

/**
 * One index's matches to `limit`, best first, and how many match in all: ranked by bm25 when
 * at most {@link MAX_SCORED} match, listed in archive order otherwise (the position standing
 * in for a rank, so the order survives the merge), so the work stays bounded however common
 * the words are.
 */
async function boundedSearch<R extends { _rank: number }>(
  reader: DatasetReader,
  table: string,
  match: string,
  columns: readonly string[],
  limit: number,
): Promise<{ total: number; rows: R[] }> {
  const search = { match, columns, limit }
  const listed = await reader.search<R>(table, { ...search, order: 'stored' })
  if (listed.total > MAX_SCORED)
    return { total: listed.total, rows: listed.rows.map((row, i) => ({ ...row, _rank: i })) }
  return reader.search<R>(table, search)
}

/**
 * The rows of a lower tier: the documents an index found that no higher tier holds, to
 * `depth`, with their header columns.
 */
async function tierRows(
  reader: DatasetReader,
  found: Array<{ document_id: string; _rank: number }>,
  seen: Set<string>,
  depth: number,
  tier: number,
): Promise<Ranked[]> {
  const rest = found.filter((row) => !seen.has(row.document_id)).slice(0, depth)
  if (rest.length === 0) return []
  const headers = await reader.select<DocumentRow>('documents', {
    where: { document_id: { in: rest.map((row) => row.document_id) } },
    columns: HIT_COLUMNS,
  })
  const byId = new Map(headers.map((row) => [row.document_id, row]))
  return rest.flatMap((row) => {
    const header = byId.get(row.document_id)
    return header ? [{ ...header, _rank: row._rank, _tier: tier }] : []
  })
}

/**
 * One collection's matches to `depth`, best first, and how many match in all. Title matches
 * come first, ranked on the small titles index; then heading matches, ranked on the headings
 * index; with full text, the text matches follow, ranked on the text index. Each index's body
 * starts with the titles, so each lower index finds every match of those above it: its count
 * is the total, and its rows past the ones above are the next tier.
 */
async function collectionMatches(
  reader: DatasetReader,
  queries: RuleQueries,
  fullText: boolean,
  depth: number,
): Promise<{ total: number; rows: Ranked[] }> {
  // Titles too: a word in most titles ("forskrift", "om") is listed in archive order, not scored.
  const titled = await boundedSearch<Ranked>(reader, 'documents', queries.titles.match, HIT_COLUMNS, depth)
  const rows: Ranked[] = titled.rows.map((row) => ({ ...row, _tier: 0 }))
  const seen = new Set(rows.map((row) => row.document_id))
  const tiers = fullText ? (['headings', 'texts'] as const) : (['headings'] as const)
  let total = titled.total
  for (const [i, table] of tiers.entries()) {
    const found = await boundedSearch<{ document_id: string; _rank: number }>(
      reader,
      table,
      queries.text.match,
      ['document_id'],
      depth + seen.size,
    )
    total = found.total
    for (const row of await tierRows(reader, found.rows, seen, depth, i + 1)) {
      rows.push(row)
      seen.add(row.document_id)
    }
  }
  return { total, rows }
}

/**
 * Readers of the collections searched. Every collection asked for must be loaded: a search that
 * silently left one out would mislead. When both are asked for (no `source`) and one is
 * loaded, the 502 says how to search that one.
 */
function openCollections(
  sources: RuleSource[],
  open: (dataset: (typeof RULE_DATASETS)[RuleSource]) => DatasetReader,
): DatasetReader[] {
  const readers: DatasetReader[] = []
  let missing: GatewayError | undefined
  let loaded: RuleSource | undefined
  for (const source of sources) {
    try {
      readers.push(open(RULE_DATASETS[source]))
      loaded = source
    } catch (error) {
      if (!isDatasetNotLoaded(error)) throw error
      missing ??= error
    }
  }
  if (!missing) return readers
  if (!loaded) throw missing
  throw new GatewayError(
    502,
    'dataset_not_loaded',
    `${missing.message}. Meanwhile source=${loaded} searches the ${loaded}, which are loaded.`,
  )
}

/**
 * `search_rules`: laws and central regulations in force whose titles and headings (or, with
 * `full_text=yes`, text too) match every word; a section reference (`§ 5a`, `§§ 3-1 til 3-3`)
 * keeps the rules that have such a section. Title matches first, ranked by SQLite FTS5's bm25
 * with the names a law goes by weighted highest, so "straffeloven" finds Straffeloven first;
 * then heading matches, each naming the section whose heading matched; then text matches.
 *
 * @example
 * await searchRules.run({ query: 'aksjeloven', source: undefined, full_text: false, limit: 20, offset: 0 }, ctx)
 */
export const searchRules = defineOperation({
  description:
    'Search Norwegian laws and central regulations in force (Lovdata’s public data) by title and section headings, or with ' +
    'full_text=yes by their text too. Title matches come first, then heading matches (matched_section names the section, ' +
    'such as § 13-5 Radon), then text matches. Every word must match (as a word or its beginning; with full_text=yes words under six letters match whole); ' +
    '“§ 5a” or “§§ 3-1 til 3-3” keeps rules that have those sections. source=laws or ' +
    'source=regulations searches one collection. A law whose short title matches (“straffeloven”) ranks first.',
  parameters: {
    query: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(500, 'must be at most 500 characters'),
      v.description('Words, a title, or a section reference such as § 5a'),
    ),
    source: v.optional(
      v.pipe(
        v.picklist(['laws', 'regulations'], 'must be laws or regulations'),
        v.description('laws or regulations; both when absent'),
      ),
    ),
    full_text: v.optional(
      v.pipe(v.boolean(), v.description('Search the text of the sections too, not only titles')),
      false,
    ),
  },
  limit: { default: 20, max: 100 },
  output: searchRulesOutput,
  list: 'hits',
  canonicalFieldAliases: { name: ['hits[].title'] },
  async run(params, ctx) {
    // In the text a short word matches whole: "til"* would merge the postings of every word
    // beginning so (tilskudd, tilsyn, tillatelse, ...), tens of milliseconds for each search.
    const options = {
      sectionColumn: 'section_keys',
      sectionToken,
      minPrefixLength: params.full_text ? TEXT_MIN_PREFIX : 3,
    }
    const titles = buildFtsQuery(params.query, { ...options, columns: TITLE_COLUMNS })
    const text = buildFtsQuery(params.query, options)
    if (!titles || !text) {
      const problem = 'must hold a word or a section number to search for'
      throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: query ${problem}`, {
        details: [{ parameter: 'query', problem, rule: 'format' }],
      })
    }
    const queries: RuleQueries = { titles, text }
    if (params.offset + params.limit > MAX_DEPTH) {
      const problem = `must leave offset + limit at most ${MAX_DEPTH}; narrow the query instead`
      throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: offset ${problem}`, {
        details: [{ parameter: 'offset', problem, rule: 'max_value' }],
      })
    }
    const sources: RuleSource[] = params.source ? [params.source] : ['laws', 'regulations']
    const readers = openCollections(sources, ctx.dataset)
    // A law called exactly what was typed ("straffeloven", "aksjeloven") comes first whatever bm25
    // makes of the laws that amend or cite it. Those few are found by the short-title index, not
    // by ranking every match; an index confirms them only when the query asks more than the name.
    const typed = titles.words.join(' ')
    const named = typed
      ? (await Promise.all(readers.map((reader) => namedRules(reader, typed, queries, params.full_text)))).flat()
      : []
    const first = new Set(named.map((row) => row.document_id))
    const depth = params.offset + params.limit + first.size
    const found = await Promise.all(
      readers.map((reader) => collectionMatches(reader, queries, params.full_text, depth)),
    )
    const total = found.reduce((sum, result) => sum + result.total, 0)
    const merged = [
      ...named,
      ...found.flatMap((result) => result.rows).filter((row) => !first.has(row.document_id)),
    ].sort(byTierAndRank)
    const page = merged.slice(params.offset, params.offset + params.limit)
    const byHeading = page.filter((row) => row._tier === 1)
    const sectionsFound = await Promise.all(
      readers.map((reader, i) => {
        const ids = byHeading.filter((row) => ruleSourceOf(row.kind) === sources[i]).map((row) => row.document_id)
        return matchedSections(reader, ids, titles, options.minPrefixLength)
      }),
    )
    const matched = new Map<string, MatchedSection>(sectionsFound.flatMap((found) => [...found]))
    const section = titles.sections[0]
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
          ...(matched.has(row.document_id) ? { matched_section: matched.get(row.document_id) } : {}),
        })),
        hint,
      },
      page: { hasMore: params.offset + page.length < total, total },
    }
  },
  entities: (data) => [
    ...data.hits.map(ruleEntity),
    ...data.hits.flatMap((hit) =>
      hit.matched_section
        ? [sectionEntity(hit.document_id, hit.matched_section.section, hit.matched_section.title)]
        : [],
    ),
  ],
})
