/** The header fields of one generated Lovdata document. */
export interface DocumentHeader {
  /** `NL/lov/2005-05-20-28`, `SF/forskrift/2017-06-19-840`. */
  dokid: string
  /** `LOV-2005-05-20-28`. */
  legacyId: string
  /** `lov/2005-05-20-28`. */
  refId: string
  title: string
  titleShort?: string
  ministries: string[]
  /** ISO dates, or free text such as "Kongen bestemmer". */
  dateInForce: string[]
  lastChangeInForce?: string
  lastChangedBy?: string
  /** Hjemmel of a regulation: refIDs such as `lov/2008-06-27-71/§29-5`. */
  basedOn?: string[]
  legalArea?: string[]
}

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const list = (values: string[]) => `<ul>${values.map((value) => `<li>${escape(value)}</li>`).join('')}</ul>`

/** One `dt`/`dd` pair, written with no space between `</dt>` and `<dd>`, as the real files are. */
function field(key: string, label: string, value: string): string {
  return `<dt class="${key}">${label}</dt><dd class="${key}">${value}</dd>\n`
}

/**
 * The header of a Lovdata document (`header.documentHeader`, a `dl` of `dt`/`dd` pairs keyed
 * by class), in the order and shape of the public data files.
 *
 * @example
 * documentHeaderXml({ dokid: 'NL/lov/2005-05-20-28', legacyId: 'LOV-2005-05-20-28', refId: 'lov/2005-05-20-28', title: 'Lov om straff (straffeloven)', ministries: ['Justis- og beredskapsdepartementet'], dateInForce: ['2015-10-01'] })
 */
export function documentHeaderXml(header: DocumentHeader): string {
  let dl = ''
  dl += field('legacyID', 'Datokode', escape(header.legacyId))
  dl += field('dokid', 'DokumentID', escape(header.dokid))
  dl += field('ministry', 'Departement', list(header.ministries))
  dl += field(
    'dateInForce',
    'I kraft fra',
    header.dateInForce.length === 1 ? escape(header.dateInForce[0] as string) : list(header.dateInForce),
  )
  if (header.lastChangeInForce)
    dl += field('lastChangeInForce', 'Ikrafttredelse av siste endring', escape(header.lastChangeInForce))
  if (header.lastChangedBy) dl += field('lastChangedBy', 'Sist endret ved', list([header.lastChangedBy]))
  if (header.basedOn) dl += field('basedOn', 'Hjemmel', list(header.basedOn))
  if (header.legalArea) dl += field('legalArea', 'Rettsområde', list(header.legalArea))
  if (header.titleShort) dl += field('titleShort', 'Korttittel', escape(header.titleShort))
  dl += field('title', 'Tittel', escape(header.title))
  dl += field('refid', 'RefID', escape(header.refId))
  return `<header class="documentHeader"><dl class="data-document-key-info">\n${dl}</dl></header>`
}

/**
 * A whole Lovdata document: XHTML with the header and `main.documentBody` holding `body`.
 *
 * @example
 * lovdataDocumentXml(header, '<article class="legalArticle" data-name="§1">…</article>')
 */
export function lovdataDocumentXml(header: DocumentHeader, body: string): string {
  const lang = header.dokid.endsWith('-nn') ? 'nn' : 'no'
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n' +
    `<html lang="${lang}"><head><meta charset="utf-8"/><title>${escape(header.title)}</title></head><body>\n` +
    documentHeaderXml(header) +
    `\n<main class="documentBody" id="dokument" data-lovdata-URL="${escape(header.dokid)}">\n${body}\n</main>\n</body></html>\n`
  )
}

/** One section of a generated body: its number, title and ledd (each a string of inline markup or a block). */
export interface SectionSpec {
  /** `13-5`, `5a`. */
  number: string
  title?: string
  /** Ledd as inline markup, each written as an `article.legalP` (or `numberedLegalP`); lists go inside a ledd. */
  ledd: string[]
  /** Number the ledd as `numberedLegalP` with "(1)", "(2)", ... in the text. */
  numbered?: boolean
  changes?: string
}

/**
 * A section (`article.legalArticle`) in the real markup: header with `legalArticleValue` and
 * `legalArticleTitle`, then its ledd and change note.
 *
 * @example
 * sectionXml('NL/lov/2005-05-20-28', { number: '1', title: 'Formål', ledd: ['Loven skal …'] }, 'kapittel-1-paragraf-1', 'h3')
 */
export function sectionXml(dokid: string, section: SectionSpec, id: string, heading = 'h3'): string {
  const name = `§${section.number}`
  const title = section.title ? `. <span class="legalArticleTitle">${escape(section.title)}</span>` : ''
  const ledd = section.ledd
    .map((text, i) => {
      if (section.numbered) {
        return `<article class="numberedLegalP" data-numerator="${i + 1}" id="${id}-nummer-${i + 1}">(${i + 1}) ${text}</article>`
      }
      return `<article class="legalP" id="${id}-ledd-${i + 1}">${text}</article>`
    })
    .join('\n')
  const changes = section.changes ? `\n<article class="changesToParent">${escape(section.changes)}</article>` : ''
  return (
    `<article class="legalArticle" data-name="${escape(name)}" id="${id}" data-lovdata-URL="${escape(`${dokid}/${name}`)}">` +
    `<${heading} class="legalArticleHeader"><span class="legalArticleValue">§ ${escape(section.number)}</span>${title}</${heading}>\n` +
    `${ledd}${changes}\n</article>`
  )
}

/**
 * A chapter (`section.section`) holding sections.
 *
 * @example
 * chapterXml(1, 'Kapittel 1. Innledende bestemmelser', [sectionXml('NL/lov/2005-05-20-28', { number: '1', ledd: ['Loven gjelder.'] }, 'paragraf-1')])
 */
export function chapterXml(number: number, heading: string, sections: string[]): string {
  return `<section class="section" data-name="kap${number}" id="kapittel-${number}"><h2>${escape(heading)}</h2>\n${sections.join('\n')}\n</section>`
}

/**
 * An `ol` list in the real markup: each item a `listArticle` holding a `legalP`.
 *
 * @example
 * listXml('a', ['ha radonsperre mot grunnen, og', 'være tilrettelagt for …'], 'kapittel-13-paragraf-5-nummer-2')
 */
export function listXml(type: 'a' | '1', items: string[], id: string): string {
  const marker = (i: number) => (type === 'a' ? `${String.fromCharCode(97 + i)}.` : `${i + 1}.`)
  const lis = items
    .map(
      (item, i) =>
        `<li data-name="${marker(i)}" value="${i + 1}"><article class="listArticle" id="${id}-punkt-${i + 1}"><article class="legalP" id="${id}-punkt-${i + 1}-ledd-1">${item}</article></article></li>`,
    )
    .join('')
  return `<ol class="defaultList" type="${type}">${lis}</ol>`
}
