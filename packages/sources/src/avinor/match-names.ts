import { rankByName } from '@allmenning/core/source'

/** A code and name pair from one of Avinor's name lists. */
export interface NamedCode {
  code: string
  name: string
}

// Made on the first sort, not at import: the first Intl.Collator of a process loads ICU's
// collation data, some 6 ms that a cold start answering anything else would pay.
let collator: Intl.Collator | undefined

/**
 * Finds entries of a code → name list by code or by (part of the) name, with the core's name
 * ranking: an exact code first, then exact names, names that start with the query, and other
 * partial matches. Ties are in Norwegian alphabetical order (Ålesund after Kristiansund).
 *
 * @example
 * matchNames(new Map([['BGO', 'Bergen'], ['BER', 'Berlin Brandenburg']]), 'ber')
 * // [{ code: 'BER', name: 'Berlin Brandenburg' }, { code: 'BGO', name: 'Bergen' }]
 */
export function matchNames(list: Map<string, string>, query: string): NamedCode[] {
  return rankByName(query, inNameOrder(list), (entry) => ({ codes: [entry.code], names: [entry.name] })).map(
    (ranked) => ranked.item,
  )
}

// Avinor's lists hold about 2,000 airports and 700 airlines and change once a day: sorted once
// per list, not once per lookup (the sort alone took most of a 10 ms lookup).
const sorted = new WeakMap<Map<string, string>, NamedCode[]>()

function inNameOrder(list: Map<string, string>): NamedCode[] {
  let entries = sorted.get(list)
  if (!entries) {
    entries = [...list].map(([code, name]) => ({ code, name }))
    const nb = (collator ??= new Intl.Collator('nb'))
    entries.sort((a, b) => nb.compare(a.name, b.name) || a.code.localeCompare(b.code))
    sorted.set(list, entries)
  }
  return entries
}
