/**
 * An element as the reader in `stream-xml-document.ts` hands it out: attributes under `@_`,
 * each child element's text (or, when it has attributes, an object with `#text`) by name.
 */
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

/** The prefix under which an element's attributes are kept. */
export const ATTRIBUTE = '@_'

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
 * Whether a parsed value is an element with children or attributes (not text or a list).
 *
 * @example
 * isElement(flight['status']) // true for <status code="A"/>, false for <gate>E8</gate>
 */
export function isElement(value: unknown): value is XmlElement {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The trimmed text of an element or attribute value (the reader has decoded its entities); null when empty or absent.
 *
 * @example
 * textOf(flight['gate']) // 'E8', or null for <gate/> or no gate
 */
export function textOf(value: unknown): string | null {
  let raw: unknown = value
  if (isElement(value)) raw = value['#text']
  if (Array.isArray(value)) raw = value[0]
  if (typeof raw !== 'string') return null
  const text = raw.trim()
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
