// Legal-form words that end Norwegian company names. A user asking for "Sesam" means
// "SESAM AS", so these are ignored when deciding whether a name is an exact match.
const LEGAL_FORM_SUFFIXES = new Set([
  'as', 'asa', 'ans', 'da', 'ba', 'sa', 'ks', 'kf', 'iks', 'enk', 'nuf', 'se', 'sf', 'fli', 'stiftelse',
])

/**
 * A name reduced to what matters for matching: NFKC, lower case, every run of non-letters and
 * non-digits turned into one space, so "Sesam A/S" and "SESAM  AS" compare equal.
 *
 * @example
 * normalizeName('  Fjord-Kraft  AS ') // 'fjord kraft as'
 */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKC')
    .toLocaleLowerCase('nb')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

function withoutLegalForm(normalized: string): string {
  const words = normalized.split(' ')
  while (words.length > 1 && LEGAL_FORM_SUFFIXES.has(words[words.length - 1] ?? '')) words.pop()
  return words.join(' ')
}

/**
 * How well a name matches a query, lower is better:
 * 0 the same normalized name; 1 the same once trailing legal forms (AS, ASA, ENK, ...) are
 * dropped from both; 2 the name starts with the query; 3 anything else Brønnøysund found.
 *
 * @example
 * matchTier('sesam', 'SESAM AS') // 1
 */
export function matchTier(query: string, name: string): 0 | 1 | 2 | 3 {
  const q = normalizeName(query)
  const n = normalizeName(name)
  if (n === q) return 0
  if (withoutLegalForm(n) === withoutLegalForm(q)) return 1
  if (q !== '' && n.startsWith(q)) return 2
  return 3
}

/**
 * Orders search hits so the best match comes first: by {@link matchTier}, and within a tier in
 * the order given, which is Brønnøysund's relevance score. Brønnøysund's own score often puts
 * "SESAM BAKERI AS" above "SESAM AS" for "Sesam"; a user looking up one company by name
 * expects that company first.
 *
 * @example
 * rankByName('sesam', [{ navn: 'SESAM BAKERI AS' }, { navn: 'SESAM AS' }]).map((h) => h.navn)
 * // ['SESAM AS', 'SESAM BAKERI AS']
 */
export function rankByName<T extends { navn: string }>(query: string, hits: readonly T[]): T[] {
  return hits
    .map((hit, index) => ({ hit, index, tier: matchTier(query, hit.navn) }))
    .sort((a, b) => a.tier - b.tier || a.index - b.index)
    .map(({ hit }) => hit)
}
