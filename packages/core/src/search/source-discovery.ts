import type { CompiledSource } from '../compile/compile-source.js'
import { rankByName, type Named } from '../text/rank-by-name.js'

/** A source that matched a search text, with how well ({@link matchTier}: lower is better). */
export interface SourceMatch {
  source: CompiledSource
  tier: number
}

/** What a source is found by in discovery: its id; its name, keywords, synonyms and topic; its description. */
function named(source: CompiledSource): Named {
  const d = source.definition
  return { codes: [source.id], names: [d.name, ...d.keywords, ...(d.synonyms ?? []), d.topic], text: d.description }
}

/** The best tier of a match that counts as naming the source itself: its id, or a whole name, keyword or synonym. */
export const namesSourceTier = 1

/**
 * Source discovery: matches source ids, names, keywords, curated synonyms, topics and
 * descriptions locally, without calling any upstream; best first, ties by id.
 *
 * @example
 * discoverSources('strøm', catalog.sources)[0]?.source.id // 'statnett'
 */
export function discoverSources(query: string, candidates: readonly CompiledSource[]): SourceMatch[] {
  const sorted = [...candidates].sort((a, b) => a.id.localeCompare(b.id))
  return rankByName(query, sorted, named).map(({ item, tier }) => ({ source: item, tier: tier! }))
}
