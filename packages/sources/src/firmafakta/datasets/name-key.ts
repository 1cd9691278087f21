import { foldNorwegian } from '@allmenning/core'

const ascii = /^[\x00-\x7f]*$/
const nonWord = /[^\p{L}\p{N}]+/u

/**
 * A person's name as a lookup key: folded as `foldNorwegian` folds (case, accents, æ/ø), its
 * words sorted, so the registers' "NORDMANN OLA" and a user's "Ola Nordmann" meet. Middle
 * names count: a key holds every word of the name. Computed for every row of a million-row
 * file, so names that are plain ASCII once lower-cased (most) skip Unicode normalisation.
 *
 * @example
 * nameKey('NORDMANN OLA') === nameKey('Ola Nordmann') // true
 * nameKey('Åse  Ødegård') // 'ase odegard'
 */
export function nameKey(name: string): string {
  const lower = name.toLowerCase()
  const folded = ascii.test(lower) ? lower : foldNorwegian(name.normalize('NFC'))
  const words = folded.split(nonWord)
  const kept: string[] = []
  for (const word of words) if (word !== '') kept.push(word)
  return kept.sort().join(' ')
}
