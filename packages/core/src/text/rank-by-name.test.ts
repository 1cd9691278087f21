import { describe, expect, it } from 'vitest'
import { matchTier, normalizeName, rankByName } from './rank-by-name.js'

const legalForms = new Set(['as', 'asa'])

describe('normalizeName', () => {
  it('folds Norwegian letters, case, punctuation and spacing', () => {
    expect(normalizeName('  Fjord-Kraft   A/S ')).toBe('fjord kraft a s')
    expect(normalizeName('ÆRØ ÅS')).toBe('aero as')
  })
})

describe('matchTier', () => {
  const tromso = { codes: ['TOS'], names: ['Tromsø lufthavn'], text: 'The northernmost airport with a long runway' }
  it('ranks a code, a whole name, a name without its legal form, a name start, a word start and a part', () => {
    expect(matchTier('tos', tromso)).toBe(0)
    expect(matchTier('Tromso Lufthavn', tromso)).toBe(1)
    expect(matchTier('Sesam ASA', { names: ['SESAM AS'] }, { ignoredTrailingWords: legalForms })).toBe(2)
    expect(matchTier('Sesam ASA', { names: ['SESAM AS'] })).toBe(6)
    expect(matchTier('troms', tromso)).toBe(3)
    expect(matchTier('luft', tromso)).toBe(4)
    expect(matchTier('ftha', tromso)).toBe(5)
  })

  it('matches the words of a longer query, then word starts, code starts and the text', () => {
    expect(matchTier('flights from tos', tromso)).toBe(6)
    expect(matchTier('lufthavner i nord', tromso)).toBe(7)
    expect(matchTier('t', { codes: ['TOS'], names: ['Bodø'] })).toBe(8)
    expect(matchTier('runway', tromso)).toBe(9)
    expect(matchTier('way', tromso)).toBeUndefined()
    expect(matchTier('   ', tromso)).toBeUndefined()
  })
})

describe('rankByName', () => {
  const hits = [{ n: 'SESAM B AS' }, { n: 'X SESAM' }, { n: 'BAKERI' }, { n: 'SESAM AS' }]
  const names = (h: { n: string }) => ({ names: [h.n] })

  it('keeps the given order inside a tier and leaves out what does not match', () => {
    expect(rankByName('sesam', hits, names).map((r) => r.item.n)).toEqual(['SESAM B AS', 'SESAM AS', 'X SESAM'])
  })

  it('keeps unmatched items last when asked, with their tier undefined', () => {
    const ranked = rankByName('sesam', hits, names, { keepUnmatched: true, ignoredTrailingWords: legalForms })
    expect(ranked.map((r) => [r.item.n, r.tier])).toEqual([
      ['SESAM AS', 2],
      ['SESAM B AS', 3],
      ['X SESAM', 4],
      ['BAKERI', undefined],
    ])
  })
})
