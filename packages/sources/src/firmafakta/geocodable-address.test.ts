import { describe, expect, it } from 'vitest'
import { geocodableAddress, normalizeStreet } from './geocodable-address.js'

const oslo = (adresse: string[], postnummer: string | null = '0153') => ({
  adresse,
  postnummer,
  poststed: 'OSLO',
  kommune: 'OSLO',
  kommunenummer: '0301',
  land: 'Norge',
  landkode: 'NO',
})

describe('geocodableAddress', () => {
  it('takes the street line and the postal code, keyed so that spelling variants are one address', () => {
    expect(geocodableAddress(oslo(['Kongens gate 30']))).toEqual({
      street: 'Kongens gate 30',
      postnummer: '0153',
      key: 'kongens gate 30|0153',
    })
    expect(geocodableAddress(oslo(['KONGENS  GATE 30 A']))?.key).toBe('kongens gate 30a|0153')
    expect(normalizeStreet('Kongens gate 30A')).toBe(normalizeStreet('kongens gate 30 a'))
  })

  it('skips a c/o line before the street, and takes the last line naming a place', () => {
    expect(geocodableAddress(oslo(['c/o Regnskap AS', 'Kongens gate 30']))?.street).toBe('Kongens gate 30')
    expect(geocodableAddress(oslo(['Kongens gate 30', 'Postboks 44']))?.street).toBe('Kongens gate 30')
  })

  it('has nothing to look up for a box, a foreign address, a missing postal code or no address', () => {
    expect(geocodableAddress(oslo(['Postboks 123 Sentrum'], '0102'))).toBeUndefined()
    expect(geocodableAddress(oslo(['Pb. 8500'], '4035'))).toBeUndefined()
    expect(
      geocodableAddress({ ...oslo(['Norra Hamngatan 9']), postnummer: null, landkode: 'SE', land: 'Sverige' }),
    ).toBeUndefined()
    expect(geocodableAddress(oslo(['Kongens gate 30'], null))).toBeUndefined()
    expect(geocodableAddress(oslo([]))).toBeUndefined()
    expect(geocodableAddress(null)).toBeUndefined()
  })
})
