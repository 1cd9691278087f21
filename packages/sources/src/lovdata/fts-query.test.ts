import { describe, expect, it } from 'vitest'
import { buildFtsQuery } from './fts-query.js'

describe('buildFtsQuery', () => {
  it('requires every word, longer ones also as a prefix', () => {
    expect(buildFtsQuery('Aksjeloven styre')).toEqual({
      match: '"aksjeloven"* AND "styre"*',
      words: ['aksjeloven', 'styre'],
      phrases: [],
      sections: [],
    })
    expect(buildFtsQuery('lov om')?.match).toBe('"lov"* AND "om"')
  })

  it('keeps æ, ø and å as letters of the word', () => {
    expect(buildFtsQuery('Arbeidsmiljø på Ærø')?.words).toEqual(['arbeidsmiljø', 'på', 'ærø'])
  })

  it.each(['§ 5a', '§5a', 'paragraf 5a', '§ 5 a'])('reads %j as section 5a', (input) => {
    expect(buildFtsQuery(input)).toMatchObject({ match: '("5a")', sections: ['5a'], words: [] })
  })

  it('expands a range of sections into each of them', () => {
    expect(buildFtsQuery('§§ 3-1 til 3-3')).toMatchObject({
      sections: ['3-1', '3-2', '3-3'],
      match: '("3 1" OR "3 2" OR "3 3")',
    })
    expect(buildFtsQuery('§§ 3 – 5')?.sections).toEqual(['3', '4', '5'])
    expect(buildFtsQuery('§§ 3-1, 3-4 og 3-7')?.sections).toEqual(['3-1', '3-4', '3-7'])
  })

  it('searches a section as one token when the index holds it so', () => {
    const token = (section: string) => `p${section.replace(/-/g, 'x')}`
    expect(buildFtsQuery('klage §§ 3-1 til 3-2', { sectionColumn: 'section_keys', sectionToken: token })?.match).toBe(
      '"klage"* AND {section_keys} : ("p3x1" OR "p3x2")',
    )
  })

  it('keeps only the ends of a range across chapters or wider than maxRange', () => {
    expect(buildFtsQuery('§§ 3-9 til 4-2')?.sections).toEqual(['3-9', '4-2'])
    expect(buildFtsQuery('§§ 1 til 500')?.sections).toEqual(['1', '500'])
    expect(buildFtsQuery('§§ 1 til 5', { maxRange: 3 })?.sections).toEqual(['1', '5'])
  })

  it('combines words and sections', () => {
    expect(buildFtsQuery('straffeloven § 5a')?.match).toBe('"straffeloven"* AND ("5a")')
    expect(buildFtsQuery('arbeidsmiljøloven § 2 A-1')).toMatchObject({
      sections: ['2a-1'],
      words: ['arbeidsmiljøloven'],
    })
  })

  it('limits words to the given columns and sections to their own column', () => {
    expect(buildFtsQuery('aksjeloven', { columns: ['title_short', 'title'] })?.match).toBe(
      '{title_short title} : ("aksjeloven"*)',
    )
    expect(buildFtsQuery('radon § 13-5', { columns: ['text'], sectionColumn: 'section' })?.match).toBe(
      '{text} : ("radon"*) AND {section} : ("13 5")',
    )
  })

  it('searches quoted text as a phrase', () => {
    expect(buildFtsQuery('"tvungen psykisk helsevern" vilkår')).toMatchObject({
      match: '"vilkår"* AND "tvungen psykisk helsevern"',
      phrases: ['tvungen psykisk helsevern'],
    })
  })

  it('never runs FTS5 syntax the user typed', () => {
    const query = buildFtsQuery('skatt OR NEAR(a b) col:x ^start "unclosed')
    expect(query?.match).toBe(
      '"skatt"* AND "or" AND "near"* AND "a" AND "b" AND "col"* AND "x" AND "start"* AND "unclosed"*',
    )
  })

  it('gives nothing for input without letters or digits', () => {
    expect(buildFtsQuery('  §§ ,. ')).toBeUndefined()
    expect(buildFtsQuery('""')).toBeUndefined()
  })
})
