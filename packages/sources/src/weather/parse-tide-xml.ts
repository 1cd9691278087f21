import { XMLParser, XMLValidator } from 'fast-xml-parser'

// Apart from tide-document.ts, so fast-xml-parser and the parser load where a water-level
// answer is read (tide-document.ts imports this file on the first one), not with the source:
// a cold start that never asks for the tide neither parses nor builds them.

// Attributes without a prefix, every value as text (so "08" stays "08"), prefixes dropped.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === 'data' || name === 'waterlevel' || name === 'location' || name === 'error',
})

/**
 * Parses Kartverket's water-level XML into plain objects (attributes as fields, values as
 * text); `undefined` for a body that is not well-formed XML.
 *
 * @example
 * const tree = parseTideXml('<tide><locationdata><nodata info="no data"/></locationdata></tide>')
 * // { tide: { locationdata: { nodata: { info: 'no data' } } } }
 */
export function parseTideXml(xml: string): unknown {
  if (!xml.startsWith('<') || XMLValidator.validate(xml) !== true) return undefined
  return parser.parse(xml)
}
