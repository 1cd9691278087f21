import { parseDocumentId, sectionKey, type RuleKind } from './document-id.js'
import {
  attributeOf,
  childrenOf,
  collapse,
  findElement,
  hasClass,
  plainText,
  tagOf,
  textOfNode,
  type MarkupNode,
} from './markup-tree.js'
import { parseMarkup } from './parse-markup.js'
import { renderText } from './section-text.js'

/** One section (paragraf) of a law or regulation. */
export interface LovdataSection {
  /** The key it is looked up by, from `data-name` without the `§`: `13-5`, `5a`, `2a-1`. */
  section: string
  /** The number as Lovdata shows it: `§ 13-5`. */
  label: string
  /** `legalArticleTitle`: `Radon`; null when the section has none. */
  title: string | null
  /**
   * Everything of the section but its header: every ledd (`legalP`, `numberedLegalP`), lists
   * with their markers, tables, change notes (`changesToParent`) and footnotes.
   */
  text: string
  /** Lovdata's stable key of the section (`data-lovdata-URL`): `NL/lov/2005-06-17-62/§13-5`. */
  url: string | null
  /** The heading of the chapter (or part) it stands in: `Kapittel 13. Miljø og helse`. */
  chapter: string | null
}

/** One law or regulation of the public data, read from its XHTML file. */
export interface LovdataDocument {
  /** `NL/lov/2005-05-20-28`, `SF/forskrift/2017-06-19-840`. */
  documentId: string
  /** `lov/2005-05-20-28`. */
  refId: string
  /** The datokode: `LOV-2005-05-20-28`. */
  legacyId: string | null
  kind: RuleKind
  /** `nb`, or `nn` for a nynorsk version. */
  language: string
  title: string
  titleShort: string | null
  /** The ministries responsible, comma-separated. */
  ministry: string | null
  /** "I kraft fra": an ISO date, several, or free text such as "Kongen bestemmer". */
  inForceFrom: string | null
  /** "Ikrafttredelse av siste endring": ISO date. */
  lastChangeInForce: string | null
  /** The legal basis of a regulation ("Hjemmel"), refIDs comma-separated. */
  basedOn: string | null
  /** The file it came from in the archive: `nl/nl-20050520-028.xml`. */
  path: string
  sections: LovdataSection[]
  /**
   * Body text that stands in no section: an introduction, or the whole body of a document
   * written without sections. Null when there is none.
   */
  looseText: string | null
}

/**
 * A file of the archive that is not a Lovdata document as described; the message names the
 * file and what is missing, so a sync can report it and go on.
 *
 * @example
 * try { parseLovdataDocument(xml, path) } catch (e) { if (e instanceof LovdataDocumentError) skipped.push(e.message) }
 */
export class LovdataDocumentError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`)
    this.name = 'LovdataDocumentError'
  }
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])

/** The values of a header `dd`: its list items, or its text. */
function headerValues(dd: MarkupNode): string[] {
  const items: string[] = []
  const collect = (node: MarkupNode) => {
    for (const child of childrenOf(node)) {
      if (tagOf(child) === 'li') items.push(plainText(child))
      else if (tagOf(child) !== undefined) collect(child)
    }
  }
  collect(dd)
  if (items.length > 0) return items.filter((item) => item !== '')
  const text = plainText(dd)
  return text === '' ? [] : [text]
}

/** Header fields by `dd` class: `dokid`, `legacyID`, `title`, `titleShort`, `ministry`, `dateInForce`, … */
function readHeader(root: MarkupNode[]): Map<string, string[]> {
  const fields = new Map<string, string[]>()
  const header = findElement(root, (node) => tagOf(node) === 'header' && hasClass(node, 'documentHeader'))
  if (!header) return fields
  const visit = (node: MarkupNode) => {
    for (const child of childrenOf(node)) {
      if (tagOf(child) === 'dd') {
        const key = attributeOf(child, 'class')?.split(/\s+/)[0]
        if (key) fields.set(key, headerValues(child))
      } else if (tagOf(child) !== undefined) {
        visit(child)
      }
    }
  }
  visit(header)
  return fields
}

interface Walk {
  sections: LovdataSection[]
  loose: MarkupNode[]
}

function headingOf(container: MarkupNode): MarkupNode | undefined {
  return childrenOf(container).find(
    (child) => HEADINGS.has(tagOf(child) ?? '') && !hasClass(child, 'legalArticleHeader'),
  )
}

function readArticle(article: MarkupNode, chapter: string | null, walk: Walk): void {
  const header = childrenOf(article).find((child) => hasClass(child, 'legalArticleHeader'))
  const valueNode = header && findElement([header], (node) => hasClass(node, 'legalArticleValue'))
  const titleNode = header && findElement([header], (node) => hasClass(node, 'legalArticleTitle'))
  const label = valueNode ? plainText(valueNode) : ''
  const dataName = attributeOf(article, 'data-name')
  const key = sectionKey(dataName ?? label)
  const nested: MarkupNode[] = []
  const text = renderText(childrenOf(article), (node) => {
    if (node === header) return true
    if (hasClass(node, 'legalArticle')) {
      nested.push(node)
      return true
    }
    return false
  })
  const title = titleNode ? plainText(titleNode) : null
  walk.sections.push({
    section: key,
    label: label || (dataName ?? ''),
    title: title === '' ? null : title,
    text,
    url: attributeOf(article, 'data-lovdata-URL') ?? null,
    chapter,
  })
  for (const child of nested) readArticle(child, chapter, walk)
}

/** Walks the body: sections in order, chapter headings remembered, text outside sections kept aside. */
function walkBody(nodes: MarkupNode[], chapter: string | null, walk: Walk): void {
  for (const node of nodes) {
    const tag = tagOf(node)
    if (tag === undefined) {
      if ((textOfNode(node) ?? '').trim() !== '') walk.loose.push(node)
      continue
    }
    if (hasClass(node, 'legalArticle')) {
      readArticle(node, chapter, walk)
      continue
    }
    if (HEADINGS.has(tag)) continue
    const heading = headingOf(node)
    const holdsArticles = findElement(childrenOf(node), (child) => hasClass(child, 'legalArticle')) !== undefined
    if (heading || holdsArticles) {
      walkBody(childrenOf(node), heading ? plainText(heading) : chapter, walk)
    } else {
      walk.loose.push(node)
    }
  }
}

function joined(fields: Map<string, string[]>, key: string): string | null {
  const values = fields.get(key)
  return values && values.length > 0 ? values.join(', ') : null
}

/**
 * Reads one Lovdata XHTML document: the header fields (`dokid`, `legacyID`, `title`,
 * `titleShort`, `ministry`, `dateInForce`, `lastChangeInForce`, `basedOn`) and every section
 * (`article.legalArticle`) with its number, title and whole text. Throws a
 * {@link LovdataDocumentError} when the file has no document id or no `main.documentBody`.
 *
 * @example
 * const doc = parseLovdataDocument(xml, 'nl/nl-20050520-028.xml')
 * doc.documentId // 'NL/lov/2005-05-20-28'
 * doc.sections.find((s) => s.section === '5a')?.text
 */
export function parseLovdataDocument(xml: string, path: string): LovdataDocument {
  let root: MarkupNode[]
  try {
    root = parseMarkup(xml)
  } catch (error) {
    throw new LovdataDocumentError(path, `is not well-formed XHTML (${(error as Error).message})`)
  }
  const fields = readHeader(root)
  const main = findElement(root, (node) => tagOf(node) === 'main' && hasClass(node, 'documentBody'))
  if (!main) throw new LovdataDocumentError(path, 'has no <main class="documentBody">')
  const dokid = joined(fields, 'dokid') ?? attributeOf(main, 'data-lovdata-URL') ?? null
  const ref = dokid ? parseDocumentId(dokid) : undefined
  if (!dokid || !ref) throw new LovdataDocumentError(path, `has no readable document id (${dokid ?? 'none'})`)
  const walk: Walk = { sections: [], loose: [] }
  walkBody(childrenOf(main), null, walk)
  const looseText = renderText(walk.loose)
  const html = findElement(root, (node) => tagOf(node) === 'html')
  // The file name and id say nynorsk for certain (`-nn`); the lang attribute is the fallback.
  const nynorsk = /-nn\.xml$/.test(path) || dokid.endsWith('-nn') || (html && attributeOf(html, 'lang')) === 'nn'
  const title =
    joined(fields, 'title') ??
    collapse(plainText(findElement(root, (node) => tagOf(node) === 'title') ?? { '#text': '' }))
  return {
    // The consolidated file's own id wins over the form parseDocumentId would write.
    documentId: dokid.includes('/') ? dokid : ref.documentId,
    refId: joined(fields, 'refid') ?? ref.refId,
    legacyId: joined(fields, 'legacyID'),
    kind: ref.kind,
    language: nynorsk ? 'nn' : 'nb',
    title,
    titleShort: joined(fields, 'titleShort'),
    ministry: joined(fields, 'ministry'),
    inForceFrom: joined(fields, 'dateInForce'),
    lastChangeInForce: joined(fields, 'lastChangeInForce'),
    basedOn: joined(fields, 'basedOn'),
    path,
    sections: walk.sections,
    looseText: looseText === '' ? null : looseText,
  }
}
