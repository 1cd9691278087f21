import { foldNorwegian } from '@allmenning/core'

const ascii = /^[\x00-\x7f]*$/
const nonWord = /[^\p{L}\p{N}]+/u

/**
 * The words of a name as they are compared: folded as `foldNorwegian` folds (case, accents,
 * æ/ø), in the name's own order. Computed for every row of a million-row file, so names that
 * are plain ASCII once lower-cased (most) skip Unicode normalisation.
 *
 * @example
 * nameWords('NORDMANN  Ola-Johan') // ['nordmann', 'ola', 'johan']
 */
export function nameWords(name: string): string[] {
  const lower = name.toLowerCase()
  const folded = ascii.test(lower) ? lower : foldNorwegian(name.normalize('NFC'))
  const kept: string[] = []
  for (const word of folded.split(nonWord)) if (word !== '') kept.push(word)
  return kept
}

/**
 * A person's name as a lookup key: its words (see {@link nameWords}) sorted, so the registers'
 * "NORDMANN OLA" and a user's "Ola Nordmann" meet. Middle names count: a key holds every word.
 *
 * @example
 * nameKey('NORDMANN OLA') === nameKey('Ola Nordmann') // true
 * nameKey('Åse  Ødegård') // 'ase odegard'
 */
export function nameKey(name: string): string {
  return nameWords(name).sort().join(' ')
}

/**
 * How a person is stored for lookups by name: the surname's first word, a bar, and the name
 * key. The index on it finds a full name (one key per word of the query that may be the
 * surname) and, by prefix, everyone with a surname, among whom a partial name (first and last
 * name without the middle one, a surname alone) is matched word by word.
 *
 * @example
 * personSearchKey('nordmann', 'Ola Johan Nordmann') // 'nordmann|johan nordmann ola'
 */
export function personSearchKey(surname: string, name: string): string {
  return `${surname}|${nameKey(name)}`
}

/**
 * The sorted words a search key holds (see {@link personSearchKey}), whatever follows them.
 *
 * @example
 * keyWords('nordmann|johan nordmann ola|1990') // ['johan', 'nordmann', 'ola']
 */
export function keyWords(key: string): string[] {
  const start = key.indexOf('|') + 1
  const end = key.indexOf('|', start)
  return key.slice(start, end < 0 ? undefined : end).split(' ')
}
