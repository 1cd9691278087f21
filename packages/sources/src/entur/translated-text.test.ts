import { describe, expect, it } from 'vitest'
import { pickTranslation } from './translated-text.js'

describe('pickTranslation', () => {
  it('picks the Norwegian text, then the English one, then the first there is', () => {
    const t = (...pairs: [string | null, string | null][]) => ({
      translation: pairs.map(([language, value]) => ({ language, value })),
    })
    expect(pickTranslation(t(['en', 'Oslo City Bike'], ['nb', 'Oslo Bysykkel']))).toBe('Oslo Bysykkel')
    expect(pickTranslation(t(['NN', 'Bysykkel'], ['en', 'City Bike']))).toBe('Bysykkel')
    expect(pickTranslation(t(['de', 'Stadtrad'], ['en', 'City Bike']))).toBe('City Bike')
    expect(pickTranslation(t(['sv', 'Stadscykel']))).toBe('Stadscykel')
  })

  it('is null where there is no text, and skips empty values', () => {
    expect(pickTranslation({ translation: [] })).toBeNull()
    expect(pickTranslation({ translation: [null, { language: 'nb', value: ' ' }] })).toBeNull()
    expect(
      pickTranslation({
        translation: [
          { language: 'nb', value: '' },
          { language: 'en', value: 'Voi' },
        ],
      }),
    ).toBe('Voi')
    expect(pickTranslation(null)).toBeNull()
  })
})
