import { describe, expect, it } from 'vitest'
import { normalizeSection, parseDocumentId, sectionKey } from './document-id.js'

describe('parseDocumentId', () => {
  const aksjeloven = {
    documentId: 'NL/lov/1997-06-13-44',
    refId: 'lov/1997-06-13-44',
    legacyId: 'LOV-1997-06-13-44',
    kind: 'lov',
  }

  it.each([
    'NL/lov/1997-06-13-44',
    'lov/1997-06-13-44',
    'LOV-1997-06-13-44',
    'nl/LOV/1997-06-13-44',
    '  lov-1997-06-13-44 ',
  ])('reads the law id written as %j', (input) => {
    expect(parseDocumentId(input)).toEqual(aksjeloven)
  })

  it('reads regulations in the same three forms', () => {
    const tek17 = {
      documentId: 'SF/forskrift/2017-06-19-840',
      refId: 'forskrift/2017-06-19-840',
      legacyId: 'FOR-2017-06-19-840',
      kind: 'forskrift',
    }
    expect(parseDocumentId('SF/forskrift/2017-06-19-840')).toEqual(tek17)
    expect(parseDocumentId('forskrift/2017-06-19-840')).toEqual(tek17)
    expect(parseDocumentId('FOR-2017-06-19-840')).toEqual(tek17)
  })

  it('drops leading zeros of the number, as Lovdata writes it', () => {
    expect(parseDocumentId('LOV-2005-05-20-028')?.documentId).toBe('NL/lov/2005-05-20-28')
  })

  it('keeps an id without a number (Grunnloven) and the nynorsk twin apart', () => {
    expect(parseDocumentId('lov/1814-05-17')?.documentId).toBe('NL/lov/1814-05-17')
    expect(parseDocumentId('NL/lov/1814-05-17-nn')?.documentId).toBe('NL/lov/1814-05-17-nn')
    expect(parseDocumentId('LOV-1814-05-17-nn')?.refId).toBe('lov/1814-05-17-nn')
  })

  it('takes a section that follows the id, and a lovdata.no address', () => {
    expect(parseDocumentId('lov/2005-05-20-28/§5a')).toMatchObject({
      documentId: 'NL/lov/2005-05-20-28',
      section: '5a',
    })
    expect(parseDocumentId('https://lovdata.no/dokument/NL/lov/2005-05-20-28/%C2%A720-1')).toMatchObject({
      documentId: 'NL/lov/2005-05-20-28',
      section: '20-1',
    })
    expect(parseDocumentId('https://lovdata.no/dokument/SF/forskrift/2017-06-19-840')?.documentId).toBe(
      'SF/forskrift/2017-06-19-840',
    )
  })

  it.each([
    '',
    'straffeloven',
    'NL/lov/2005-13-20-28',
    'SF/lov/2005-05-20-28',
    'LTI/lov/2026-01-23-1',
    'lov/05-05-20-28',
    'lov/2005-05-20-28/§',
    '%E0%A4%A',
  ])('refuses %j', (input) => {
    expect(parseDocumentId(input)).toBeUndefined()
  })
})

describe('normalizeSection', () => {
  it.each([
    ['§ 5a', '5a'],
    ['5a', '5a'],
    ['§5a', '5a'],
    ['§ 5 a', '5a'],
    ['§ 5A', '5a'],
    ['§§ 13-5', '13-5'],
    ['13 - 5', '13-5'],
    ['13–5', '13-5'],
    ['§ 2 A-1', '2a-1'],
    ['paragraf 14-9', '14-9'],
    ['§ 13-5 (2)', '13-5'],
    ['§ 12.', '12'],
  ])('%j is %j', (input, expected) => {
    expect(normalizeSection(input)).toBe(expected)
  })

  it.each(['', '§', '§ 5; DROP', 'a'.repeat(41)])('refuses %j', (input) => {
    expect(normalizeSection(input)).toBeUndefined()
  })

  it('gives data-name and the shown label the same key', () => {
    expect(sectionKey('§13-5')).toBe(sectionKey('§ 13-5'))
    expect(sectionKey('§2A-1')).toBe(normalizeSection('§ 2 A-1'))
  })
})
