import { rankByName } from '@allmenning/core/source'

// Legal-form words that end Norwegian company names. A user asking for "Sesam" means
// "SESAM AS", so these are ignored when deciding whether a name is an exact match.
const LEGAL_FORM_SUFFIXES: ReadonlySet<string> = new Set([
  'as',
  'asa',
  'ans',
  'da',
  'ba',
  'sa',
  'ks',
  'kf',
  'iks',
  'enk',
  'nuf',
  'se',
  'sf',
  'fli',
  'stiftelse',
])

/**
 * Orders Brønnøysund's search hits so the best match comes first, by the core's name ranking
 * with legal forms (AS, ASA, ENK, ...) ignored at the end of names; within a tier, and for hits
 * whose name does not contain the query at all, Brønnøysund's relevance order is kept.
 * Brønnøysund's own score often puts "SESAM BAKERI AS" above "SESAM AS" for "Sesam"; a user
 * looking up one company by name expects that company first.
 *
 * @example
 * rankCompanies('sesam', [{ navn: 'SESAM BAKERI AS' }, { navn: 'SESAM AS' }]).map((h) => h.navn)
 * // ['SESAM AS', 'SESAM BAKERI AS']
 */
export function rankCompanies<T extends { navn: string }>(query: string, hits: readonly T[]): T[] {
  return rankByName(query, hits, (hit) => ({ names: [hit.navn] }), {
    ignoredTrailingWords: LEGAL_FORM_SUFFIXES,
    keepUnmatched: true,
  }).map((ranked) => ranked.item)
}
