import { describe, expect, it } from 'vitest'
import { readAvinorFixture } from './testing/fake-avinor.js'
import { matchNames } from './match-names.js'
import { parseAirlineNames, parseAirportNames } from './parse-name-lists.js'

const airports = parseAirportNames(readAvinorFixture('airport-names.xml'))
const airlines = parseAirlineNames(readAvinorFixture('airline-names.xml'))
const codes = (list: Map<string, string>, query: string) => matchNames(list, query).map((entry) => entry.code)

describe('matchNames', () => {
  it('ranks an exact code match before names that start with the query', () => {
    expect(codes(airports, 'ber')).toEqual(['BER', 'BGO'])
    expect(codes(airlines, 'sk')).toEqual(['SK', 'GQ'])
  })

  it('finds by code in any case', () => {
    expect(matchNames(airports, 'tos')).toEqual([{ code: 'TOS', name: 'Tromsø' }])
  })

  it('finds by name with or without Norwegian letters', () => {
    expect(codes(airports, 'tromsø')).toEqual(['TOS'])
    expect(codes(airports, 'TROMSO')).toEqual(['TOS'])
    expect(codes(airports, 'alesund')).toEqual(['AES'])
    expect(codes(airlines, 'wideroe')).toEqual(['WF'])
  })

  it('orders exact names, name prefixes, word prefixes, then the rest, each by name', () => {
    expect(codes(airports, 'oslo')).toEqual(['OSL'])
    expect(codes(airports, 'narvik')).toEqual(['EVE'])
    // Names are ordered the Norwegian way: Ålesund after Kristiansund.
    expect(codes(airports, 'sund')).toEqual(['HAU', 'KSU', 'AES'])
    expect(codes(airlines, 'nor')).toEqual(['N0', 'DY', 'D8'])
    expect(codes(airlines, 'norwegian')).toEqual(['DY', 'D8'])
    // Norwegian collation sorts Å after Z; Finnair, Icelandair and Ryanair only contain the query.
    expect(codes(airlines, 'air')).toEqual([
      'AF',
      'HX',
      'A3',
      'BA',
      'DX',
      'DL',
      'N0',
      'D8',
      'QR',
      'TK',
      'W6',
      'AY',
      'FI',
      'FR',
    ])
  })

  it('answers nothing when nothing matches', () => {
    expect(matchNames(airports, 'zzz')).toEqual([])
    expect(matchNames(airports, '   ')).toEqual([])
  })
})
