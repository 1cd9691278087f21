import { XMLParser, XMLValidator } from 'fast-xml-parser'

/** An element as fast-xml-parser returns it: child elements by name, attributes under `@_`. */
export type XmlElement = Record<string, unknown>

/**
 * A body that is not the feed it should be. The reason completes the sentence "Upstream
 * Avinor flight data (avinor) ...", so the feed client can turn it into an `UpstreamError`.
 *
 * @example
 * try { parseFlights(body) } catch (e) { if (e instanceof InvalidFeedError) console.log(e.reason) }
 */
export class InvalidFeedError extends Error {
  readonly reason: string
  constructor(reason: string) {
    super(reason)
    this.name = 'InvalidFeedError'
    this.reason = reason
  }
}

const ATTRIBUTE = '@_'

/**
 * The body without a byte-order mark or surrounding space, once it is known to be neither
 * empty, nor an HTML page, nor plain text: the checks made before any XML parser sees it.
 *
 * @example
 * screenXmlBody('<html><body>Bad gateway</body></html>', 'the XmlFeed XML') // throws: answered an HTML page ...
 */
export function screenXmlBody(body: string, feedName: string): string {
  const text = body.replace(/^\uFEFF/, '').trim()
  if (text === '') throw new InvalidFeedError(`answered an empty body instead of ${feedName}`)
  if (/^(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype\s+html|<html[\s>])/i.test(text)) {
    throw new InvalidFeedError(`answered an HTML page instead of ${feedName}`)
  }
  if (!text.startsWith('<')) throw new InvalidFeedError(`answered plain text instead of ${feedName}`)
  return text
}

/**
 * Parses one Avinor XML document and returns its root element, after checking that the body
 * is well-formed XML whose root is `root`. `feedName` names the expected document in errors
 * ("the XmlFeed XML"); `repeated` lists elements that must always be arrays, so that a list
 * with one item has the same shape as a list with many.
 *
 * @example
 * const root = readXmlDocument(body, 'airportNames', 'the airportNames XML', ['airportName'])
 */
export function readXmlDocument(body: string, root: string, feedName: string, repeated: readonly string[]): XmlElement {
  const text = screenXmlBody(body, feedName)
  // fast-xml-parser accepts unclosed tags, so a truncated feed would parse as a short one.
  const valid = XMLValidator.validate(text)
  if (valid !== true) {
    throw new InvalidFeedError(
      `answered malformed XML (${valid.err.msg.replace(/\s+/g, ' ')} at line ${valid.err.line}) instead of ${feedName}`,
    )
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: ATTRIBUTE,
    // The name lists carry a default xmlns, and a prefixed variant must read the same.
    removeNSPrefix: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    // Flight ids, gates and check-in counters such as "0123" or "01" must stay strings.
    parseTagValue: false,
    parseAttributeValue: false,
    // Entities are decoded by `textOf`, which also handles numeric references; no DTD expansion.
    processEntities: false,
    isArray: (name) => repeated.includes(name),
  })
  let document: XmlElement
  try {
    document = parser.parse(text) as XmlElement
  } catch (error) {
    throw new InvalidFeedError(`answered XML that could not be read (${(error as Error).message}) instead of ${feedName}`)
  }
  const roots = Object.keys(document).filter((key) => !key.startsWith('?') && !key.startsWith('#'))
  if (roots.length !== 1 || roots[0] !== root) {
    const found = roots[0] ?? 'none'
    if (found.toLowerCase() === 'html') throw new InvalidFeedError(`answered an HTML page instead of ${feedName}`)
    throw new InvalidFeedError(`answered XML with root element <${found}> instead of ${feedName}`)
  }
  const element = document[root]
  // An empty root (<airportNames/>) parses as "", which is an element without children.
  return isElement(element) ? element : {}
}

/**
 * Whether a parsed value is an element with children or attributes (not text or a list).
 *
 * @example
 * isElement(root['flights']) // false for an empty <flights></flights>, which parses as ""
 */
export function isElement(value: unknown): value is XmlElement {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return ENTITIES[name] ?? whole
    const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
    try {
      return String.fromCodePoint(code)
    } catch {
      return whole
    }
  })
}

/**
 * The trimmed text of an element or attribute value, entities decoded; null when empty or absent.
 *
 * @example
 * textOf(flight['gate']) // 'E8', or null for <gate/> or no gate
 */
export function textOf(value: unknown): string | null {
  let raw: unknown = value
  if (isElement(value)) raw = value['#text']
  if (Array.isArray(value)) raw = value[0]
  if (typeof raw !== 'string') return null
  const text = decodeEntities(raw).trim()
  return text === '' ? null : text
}

/**
 * The text of attribute `name` of an element; null when the element or attribute is absent.
 *
 * @example
 * attributeOf(flight['status'], 'time') // '2026-09-25T14:01:00Z', or null on a cancelled flight
 */
export function attributeOf(element: unknown, name: string): string | null {
  return isElement(element) ? textOf(element[ATTRIBUTE + name]) : null
}

/**
 * The child elements called `name`, always as an array (absent or empty gives none).
 *
 * @example
 * childrenOf(list, 'airportName').length
 */
export function childrenOf(element: XmlElement, name: string): XmlElement[] {
  const value = element[name]
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value]
  // `<airportName code="X"/>` is an object; an empty `<flight/>` is "" and carries nothing.
  return list.filter(isElement)
}
