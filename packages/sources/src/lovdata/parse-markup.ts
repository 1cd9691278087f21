import { XMLParser } from 'fast-xml-parser'
import type { MarkupNode } from './markup-tree.js'

// Apart from markup-tree.ts (the nodes and what walks them), so the parser and fast-xml-parser
// load only where a document is parsed: hoyesterett-client.ts imports this file on the first
// decision page, not with the source.

// Lovdata's files are XHTML; void elements are written self-closed, but unpaired ones must not
// swallow the text after them if a file ever writes <br> the HTML way.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Spaces between inline elements are part of the text ("skal <a>§ 3</a> gjelde").
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  unpairedTags: ['br', 'hr', 'img', 'meta', 'link'],
})

/**
 * Parses one XHTML document into nodes in document order.
 *
 * @example
 * const nodes = parseMarkup('<main><article class="legalP">Tekst</article></main>')
 */
export function parseMarkup(xml: string): MarkupNode[] {
  return parser.parse(xml) as MarkupNode[]
}
