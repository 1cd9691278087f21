import { foldNorwegian } from '@allmenning/core/source'

const ascii = /^[\x00-\x7f]*$/
const latin1 = /^[\x00-\xff]*$/
const nonWord = /[^\p{L}\p{N}]+/u
/**
 * How `foldNorwegian` folds each Latin-1 character on its own. A name of Latin-1 characters
 * only (nearly every name that is not plain ASCII: æ, ø, å, é, ü) folds character by character
 * to exactly what the whole name folds to, since no Latin-1 character combines with another
 * or lower-cases by context, at a fraction of the cost of normalising it. Made on the first
 * such name, not at import (256 foldings are a millisecond of every cold start).
 */
let latin1Folds: string[] | undefined

function foldLatin1(name: string): string {
  latin1Folds ??= Array.from({ length: 256 }, (_, code) => foldNorwegian(String.fromCharCode(code)))
  let folded = ''
  for (let i = 0; i < name.length; i++) folded += latin1Folds[name.charCodeAt(i)]!
  return folded
}

/**
 * The words of a name as they are compared: folded as `foldNorwegian` folds (case, accents,
 * æ/ø), in the name's own order. Computed for every row of a million-row file, so names that
 * are plain ASCII once lower-cased (most) or Latin-1 (nearly all the rest) skip Unicode
 * normalisation.
 *
 * @example
 * nameWords('NORDMANN  Ola-Johan') // ['nordmann', 'ola', 'johan']
 */
export function nameWords(name: string): string[] {
  const lower = name.toLowerCase()
  const folded = ascii.test(lower) ? lower : latin1.test(name) ? foldLatin1(name) : foldNorwegian(name.normalize('NFC'))
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
