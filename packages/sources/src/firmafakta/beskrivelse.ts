import type { BrregUnit } from './brreg-payloads.js'
import { isDeletedUnit } from './enhet-mapping.js'

/**
 * "NORD-AURDAL" → "Nord-Aurdal": Brønnøysund writes place names in capitals, which reads as
 * shouting inside a sentence.
 *
 * @example
 * titleCasePlace('INDRE ØSTFOLD') // 'Indre Østfold'
 */
export function titleCasePlace(place: string): string {
  return place
    .toLocaleLowerCase('nb')
    .replace(
      /(^|[\s-])(\p{L})/gu,
      (_match, separator: string, letter: string) => separator + letter.toLocaleUpperCase('nb'),
    )
}

function location(unit: BrregUnit): string | undefined {
  const address = unit.forretningsadresse ?? unit.beliggenhetsadresse ?? unit.postadresse
  if (!address) return undefined
  if (address.kommune) return titleCasePlace(address.kommune)
  // A foreign address has no municipality; its country still tells namesakes apart.
  if (address.landkode && address.landkode !== 'NO' && address.land) return address.land
  return undefined
}

/**
 * One line that tells namesakes apart in a search result: organisation form, municipality,
 * main industry and any deletion, bankruptcy or winding-up state, e.g.
 * "Aksjeselskap i Trondheim — Drift av restauranter og kafeer (konkurs)". Every part is
 * left out when the register has no value for it.
 *
 * @example
 * describeUnit(unit) // 'Aksjeselskap i Trondheim — Drift av restauranter og kafeer'
 */
export function describeUnit(unit: BrregUnit): string {
  let text = unit.organisasjonsform?.beskrivelse ?? 'Enhet'
  const place = location(unit)
  if (place) text += ` i ${place}`
  const industry = unit.naeringskode1?.beskrivelse
  if (industry) text += ` — ${industry}`
  const states: string[] = []
  if (isDeletedUnit(unit)) states.push(unit.slettedato ? `slettet ${unit.slettedato}` : 'slettet')
  if (unit.konkurs) states.push('konkurs')
  if (unit.underAvvikling) states.push('under avvikling')
  if (unit.underTvangsavviklingEllerTvangsopplosning) states.push('under tvangsavvikling eller tvangsoppløsning')
  if (states.length > 0) text += ` (${states.join(', ')})`
  return text
}
