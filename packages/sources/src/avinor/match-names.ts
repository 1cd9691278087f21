import { foldNorwegian } from '@allmenning/core'

/** A code and name pair from one of Avinor's name lists. */
export interface NamedCode {
  code: string
  name: string
}

/** A name or query as it is compared: folded (see foldNorwegian) and trimmed. */
export function foldName(text: string): string {
  return foldNorwegian(text).trim()
}

/**
 * How well an entry matches, lower is better: exact code, exact name, name prefix, word
 * prefix, anywhere in the name, code prefix. Undefined when it does not match.
 */
function rank(entry: NamedCode, code: string, folded: string): number | undefined {
  if (entry.code === code) return 0
  const name = foldName(entry.name)
  if (name === folded) return 1
  if (name.startsWith(folded)) return 2
  if (name.split(/[^\p{L}\p{N}]+/u).some((word) => word.startsWith(folded))) return 3
  if (name.includes(folded)) return 4
  if (entry.code.startsWith(code)) return 5
  return undefined
}

/**
 * Finds entries of a code → name list by code or by (part of the) name, case- and
 * diacritic-insensitively. An exact code match comes first, then exact names, then names
 * that start with the query, then other partial matches; ties are ordered by name.
 *
 * @example
 * matchNames(new Map([['BGO', 'Bergen'], ['BER', 'Berlin Brandenburg']]), 'ber')
 * // [{ code: 'BER', name: 'Berlin Brandenburg' }, { code: 'BGO', name: 'Bergen' }]
 */
export function matchNames(list: Map<string, string>, query: string): NamedCode[] {
  const code = query.trim().toUpperCase()
  const folded = foldName(query)
  if (folded === '') return []
  const collator = new Intl.Collator('nb')
  const ranked: { entry: NamedCode; rank: number }[] = []
  for (const [entryCode, name] of list) {
    const entry = { code: entryCode, name }
    const r = rank(entry, code, folded)
    if (r !== undefined) ranked.push({ entry, rank: r })
  }
  ranked.sort((a, b) => a.rank - b.rank || collator.compare(a.entry.name, b.entry.name) || a.entry.code.localeCompare(b.entry.code))
  return ranked.map(({ entry }) => entry)
}
