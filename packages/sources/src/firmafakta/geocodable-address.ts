import type { Enhetsdetaljer } from './enhet-mapping.js'

/** A business address as Kartverket's address search can be asked for it. */
export interface GeocodableAddress {
  /** The street line: `Kongens gate 30`. */
  street: string
  /** Four digits. */
  postnummer: string
  /** The key of the address cache: the street line normalized, and the postal code. */
  key: string
}

// Lines that name no place: a post-office box, a c/o, a floor or a department.
const NOT_A_STREET = /^(c\/o\b|co\b|postboks\b|pb\.?\s|boks\b|postbox\b|p\.?\s?o\.?\s?box\b)/i

/**
 * An address line in the form both registers are compared in: lower case, one space, and the
 * letter after a house number joined to it (`30 a` and `30A` are one address).
 *
 * @example
 * normalizeStreet('Kongens  gate 30 A') // 'kongens gate 30a'
 */
export function normalizeStreet(line: string): string {
  return line
    .toLocaleLowerCase('nb')
    .replace(/\s+/g, ' ')
    .replace(/(\d)\s+([a-zæøå])$/u, '$1$2')
    .trim()
}

/**
 * The street line and postal code of a unit's business address, when it has a Norwegian one
 * that names a street (or a place) rather than a post-office box; undefined otherwise (a
 * foreign address of a NUF, a box, no address at all), which the area search counts as
 * `no_address` rather than guessing a point. Of several lines the last one naming a street
 * is taken: Brønnøysund puts a c/o or a building name before the street.
 *
 * @example
 * geocodableAddress({
 *   adresse: ['c/o Regnskap AS', 'Kongens gate 30'], postnummer: '0153', poststed: 'OSLO',
 *   kommune: 'OSLO', kommunenummer: '0301', land: 'Norge', landkode: 'NO',
 * })
 * // { street: 'Kongens gate 30', postnummer: '0153', key: 'kongens gate 30|0153' }
 */
export function geocodableAddress(address: Enhetsdetaljer['forretningsadresse']): GeocodableAddress | undefined {
  if (!address || (address.landkode !== null && address.landkode !== 'NO')) return undefined
  const postnummer = address.postnummer
  if (postnummer === null || !/^\d{4}$/.test(postnummer)) return undefined
  const street = address.adresse
    .map((line) => line.trim())
    .filter((line) => /\p{L}/u.test(line) && !NOT_A_STREET.test(line))
    .at(-1)
  if (street === undefined) return undefined
  return { street, postnummer, key: `${normalizeStreet(street)}|${postnummer}` }
}
