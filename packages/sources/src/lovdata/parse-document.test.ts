import { describe, expect, it } from 'vitest'
import { LovdataDocumentError, parseLovdataDocument } from './parse-document.js'
import { lawFixtures, regulationFixtures } from './testing/fixtures.js'

const byPath = (path: string) => {
  const file = [...lawFixtures(), ...regulationFixtures()].find((f) => f.path === path)
  if (!file) throw new Error(`no fixture ${path}`)
  return parseLovdataDocument(file.xml, file.path)
}

describe('parseLovdataDocument', () => {
  it('reads every header field of a law', () => {
    const doc = byPath('nl/nl-20050520-028.xml')
    expect(doc).toMatchObject({
      documentId: 'NL/lov/2005-05-20-28',
      refId: 'lov/2005-05-20-28',
      legacyId: 'LOV-2005-05-20-28',
      kind: 'lov',
      language: 'nb',
      title: 'Lov om straff (straffeloven)',
      titleShort: 'Straffeloven – strl',
      ministry: 'Justis- og beredskapsdepartementet',
      inForceFrom: '2015-10-01',
      lastChangeInForce: '2026-07-01',
      basedOn: null,
      path: 'nl/nl-20050520-028.xml',
      looseText: null,
    })
    expect(doc.sections.map((s) => [s.section, s.label, s.title, s.chapter])).toEqual([
      ['1', '§ 1', 'Straffelovgivningens saklige virkeområde', 'Kapittel 1. Straffelovgivningens virkeområde'],
      ['5', '§ 5', 'Handlinger i utlandet', 'Kapittel 1. Straffelovgivningens virkeområde'],
      ['5a', '§ 5a', 'Forbud mot dobbeltstraff', 'Kapittel 2. Vilkår for straff'],
    ])
  })

  it('keeps the lead-in, list items with their markers, the text after the list, footnote marks and the change note', () => {
    const section = byPath('nl/nl-20050520-028.xml').sections[1]
    expect(section?.text).toBe(
      'Utenfor virkeområdet etter § 4 gjelder straffelovgivningen også for handlinger foretatt i utlandet av\n' +
        'a. norsk statsborger,\n' +
        'b. person med bosted i Norge, eller\n' +
        'c. person som handler på vegne av et foretak registrert i Norge,\n' +
        'når handlingen også er straffbar etter loven i landet der den er foretatt[1].\n\n' +
        'Endret ved lover 19 juni 2009 nr. 74 (ikr. 1 okt 2015), 24 juni 2011 nr. 32.',
    )
    expect(section?.url).toBe('NL/lov/2005-05-20-28/§5')
  })

  it('decodes character references and keeps Norwegian letters', () => {
    expect(byPath('nl/nl-20050520-028.xml').sections[2]?.text).toBe(
      'Ingen kan straffes to ganger for samme handling – heller ikke i Norge og på Ærø.',
    )
  })

  it('reads TEK17 § 13-5: numbered ledd, the nested list, a ledd whose number is only in the attribute', () => {
    const doc = byPath('sf/sf-20170619-0840.xml')
    expect(doc).toMatchObject({
      documentId: 'SF/forskrift/2017-06-19-840',
      legacyId: 'FOR-2017-06-19-840',
      kind: 'forskrift',
      basedOn: 'lov/2008-06-27-71/§29-5, lov/2008-06-27-71/§29-7',
      ministry: 'Kommunal- og distriktsdepartementet',
    })
    expect(doc.sections).toHaveLength(1)
    expect(doc.sections[0]).toEqual({
      section: '13-5',
      label: '§ 13-5',
      title: 'Radon',
      chapter: 'III. Radon',
      url: 'SF/forskrift/2017-06-19-840/§13-5',
      text:
        '(1) I bygning med rom for varig opphold skal årsmiddelverdi for radonkonsentrasjon ikke overstige 200 Bq/m3.\n\n' +
        '(2) Bygning med rom for varig opphold skal\n' +
        'a. ha radonsperre mot grunnen, og\n' +
        'b. være tilrettelagt for trykkreduserende tiltak i grunnen under bygningen som kan aktiveres dersom målt radonkonsentrasjon overstiger 100 Bq/m3.\n\n' +
        '(3) Kravene i annet ledd gjelder ikke dersom det kan dokumenteres at tiltakene ikke er nødvendige.\n\n' +
        'Endret ved forskrift 25 juni 2024 nr. 1234 (i kraft 1 juli 2024).',
    })
  })

  it('tells the nynorsk twin by its file name and id', () => {
    const nn = byPath('nl/nl-18140517-000-nn.xml')
    const nb = byPath('nl/nl-18140517-000.xml')
    expect([nn.documentId, nn.language, nn.titleShort]).toEqual(['NL/lov/1814-05-17-nn', 'nn', 'Grunnlova – Grl'])
    expect([nb.documentId, nb.language]).toEqual(['NL/lov/1814-05-17', 'nb'])
    expect(nn.sections[0]?.text).toContain('Kongeriket Noreg er eit fritt')
    expect(nn.sections[0]?.title).toBeNull()
  })

  it('keeps body text outside every section', () => {
    const doc = byPath('nl/nl-19670210-000.xml')
    expect(doc.documentId).toBe('NL/lov/1967-02-10')
    expect(doc.looseText).toBe('Jfr. tidligere lov om behandlingsmåten.')
    expect(doc.sections.map((s) => s.section)).toEqual(['11', '11a'])
    expect(doc.sections[1]?.text).toBe(
      'Forvaltningsorganet skal forberede og avgjøre saken uten ugrunnet opphold.\n\n' +
        'Dersom det må ventes at det vil ta uforholdsmessig lang tid før en henvendelse kan besvares, skal det snarest mulig gis et foreløpig svar.',
    )
  })

  it('treats a section nested in a section as a section of its own', () => {
    const xml =
      '<html><body><header class="documentHeader"><dl><dt class="dokid">DokumentID</dt><dd class="dokid">NL/lov/2000-01-01-1</dd></dl></header>' +
      '<main class="documentBody"><article class="legalArticle" data-name="§1"><h3 class="legalArticleHeader"><span class="legalArticleValue">§ 1</span></h3>' +
      '<article class="legalP">Første.</article><article class="legalArticle" data-name="§1a"><h4 class="legalArticleHeader"><span class="legalArticleValue">§ 1a</span></h4>' +
      '<article class="legalP">Andre.</article></article><article class="legalP">Tredje.</article></article></main></body></html>'
    const doc = parseLovdataDocument(xml, 'nl/x.xml')
    expect(doc.sections.map((s) => [s.section, s.text])).toEqual([
      ['1', 'Første.\n\nTredje.'],
      ['1a', 'Andre.'],
    ])
    expect(doc.title).toBe('')
  })

  it('refuses a file without a body or a document id, naming the file', () => {
    expect(() => parseLovdataDocument('<html><body><p>Ikke funnet</p></body></html>', 'nl/a.xml')).toThrow(
      new LovdataDocumentError('nl/a.xml', 'has no <main class="documentBody">'),
    )
    expect(() =>
      parseLovdataDocument('<html><body><main class="documentBody"></main></body></html>', 'nl/b.xml'),
    ).toThrow(/nl\/b.xml: has no readable document id/)
  })
})
