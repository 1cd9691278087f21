/**
 * The entity id of a person who holds a role: the name's words and the birth year, lower case
 * and joined by hyphens. Brønnøysund publishes no person identifier, and the birth year is
 * the most this gateway publishes of a birth date, so name plus year is what tells namesakes
 * apart. Letters outside ASCII are kept, because folding "Bjørn" to "bjorn" would merge
 * different people.
 *
 * @example
 * personEntityId('Ove Olsen', 1981) // 'ove-olsen-1981'
 * personEntityId('Åse Ødegård', null) // 'åse-ødegård'
 */
export function personEntityId(name: string, birthYear: number | null): string {
  const words = name
    .normalize('NFC')
    .toLocaleLowerCase('nb')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
  if (birthYear !== null) words.push(String(birthYear))
  return words.join('-')
}
