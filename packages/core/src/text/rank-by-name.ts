import { createLruMap } from '../util/lru-map.js'
import { foldNorwegian } from './fold-norwegian.js'

/** What a thing can be found by: codes (an id, an IATA code), names (its name, keywords), and free text. */
export interface Named {
  codes?: readonly string[]
  names: readonly string[]
  /** Longer text (a description), matched last and only by queries of four characters or more. */
  text?: string
}

export interface RankOptions {
  /** Words that may end a name without changing what it names: legal forms such as AS or ASA. */
  ignoredTrailingWords?: ReadonlySet<string>
  /** Keep the items that match nothing, after every match, in the order given (hits an upstream search chose). */
  keepUnmatched?: boolean
}

/** An item with how well it matched: lower is better; `undefined` when it did not match. */
export interface Ranked<T> {
  item: T
  tier: number | undefined
}

/** The number of tiers {@link matchTier} can give; useful to turn a tier into a score. */
export const matchTierCount = 10

/**
 * A name as it is compared: Norwegian letters folded (see foldNorwegian), every run of
 * characters that are not letters or digits made one space, so "Sesam A/S" and "SESAM  AS" compare
 * equal and "tromso" finds "Tromsø".
 *
 * @example
 * normalizeName('  Fjord-Kraft  AS ') // 'fjord kraft as'
 */
export function normalizeName(text: string): string {
  let normalized = normalizedNames.get(text)
  if (normalized === undefined) {
    normalized = foldNorwegian(text.normalize('NFKC'))
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
    normalizedNames.set(text, normalized)
  }
  return normalized
}

// Rankings compare the same reference lists again and again (Avinor's 2,000 airport names on
// every lookup); normalizing a name costs far more than finding it here.
const normalizedNames = createLruMap<string, string>(20_000)

function withoutTrailing(normalized: string, words: ReadonlySet<string> | undefined): string {
  if (!words) return normalized
  const parts = normalized.split(' ')
  while (parts.length > 1 && words.has(parts[parts.length - 1]!)) parts.pop()
  return parts.join(' ')
}

const near = (a: string, b: string) => (a.length >= 4 && b.startsWith(a)) || (b.length >= 4 && a.startsWith(b))

/**
 * How well a query matches, lower is better: 0 a code; 1 a whole name; 2 a whole name once
 * ignored trailing words are dropped from both; 3 the start of a name; 4 the start of a word
 * of a name; 5 anywhere in a name; 6 one of the query's words is a word of a name or a code;
 * 7 one of its words (four letters or more) begins a word of a name, or the other way round;
 * 8 the start of a code; 9 anywhere in the text. Undefined when nothing matches.
 *
 * @example
 * matchTier('tromso', { codes: ['TOS'], names: ['Tromsø'] }) // 1
 */
export function matchTier(query: string, named: Named, options: RankOptions = {}): number | undefined {
  return tierOfNormalized(normalizeName(query), named, options)
}

/** {@link matchTier} of a query already normalized, so a ranking normalizes it once, not once an item. */
function tierOfNormalized(q: string, named: Named, options: RankOptions): number | undefined {
  if (q === '') return undefined
  const codes = (named.codes ?? []).map(normalizeName)
  const names = named.names.map(normalizeName).filter((n) => n !== '')
  if (codes.includes(q)) return 0
  if (names.includes(q)) return 1
  if (options.ignoredTrailingWords) {
    const bare = withoutTrailing(q, options.ignoredTrailingWords)
    if (names.some((n) => withoutTrailing(n, options.ignoredTrailingWords) === bare)) return 2
  }
  if (names.some((n) => n.startsWith(q))) return 3
  const nameWords = names.flatMap((n) => n.split(' '))
  if (nameWords.some((w) => w.startsWith(q))) return 4
  if (names.some((n) => n.includes(q))) return 5
  const queryWords = q.split(' ')
  if (queryWords.some((w) => nameWords.includes(w) || codes.includes(w))) return 6
  if (queryWords.some((w) => nameWords.some((n) => near(w, n)))) return 7
  if (codes.some((c) => c.startsWith(q))) return 8
  if (q.length >= 4 && named.text !== undefined && normalizeName(named.text).includes(q)) return 9
  return undefined
}

/**
 * Orders items by how well they match a query ({@link matchTier}), keeping the given order
 * within a tier, so a list sorted by name stays sorted and an upstream's relevance order is
 * kept. Items that match nothing are left out unless `keepUnmatched`. One ranking for every
 * lookup by name: source discovery, companies, airports and airlines.
 *
 * @example
 * rankByName<{ navn: string }>('sesam', hits, (h) => ({ names: [h.navn] }), { ignoredTrailingWords: legalForms, keepUnmatched: true })
 */
export function rankByName<T>(
  query: string,
  items: readonly T[],
  describe: (item: T) => Named,
  options: RankOptions = {},
): Ranked<T>[] {
  const q = normalizeName(query)
  return items
    .map((item, index) => ({ item, index, tier: tierOfNormalized(q, describe(item), options) }))
    .filter((r) => r.tier !== undefined || options.keepUnmatched)
    .sort((a, b) => (a.tier ?? matchTierCount) - (b.tier ?? matchTierCount) || a.index - b.index)
    .map(({ item, tier }) => ({ item, tier }))
}
