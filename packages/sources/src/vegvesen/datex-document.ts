import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { InvalidFeedError, screenXmlBody } from '../avinor/xml-document.js'

/**
 * One element of a DATEX II document as {@link streamDatexSituations} hands it out: its local
 * name and attributes (namespace prefixes dropped, `xsi:type="ns12:Accident"` kept as
 * `type: 'ns12:Accident'`), its child elements in order, and its own text.
 */
export interface XmlNode {
  name: string
  attributes: Record<string, string>
  children: XmlNode[]
  text: string
}

/** What the document says outside its situations. */
export interface DatexDocument {
  /** Local name of the root: `messageContainer` (Vegvesen's) or `payload`. */
  root: string
  /** The text of each leaf element outside the situations, by local name, first one kept: `publicationTime`, `nationalIdentifier`. */
  texts: Record<string, string>
}

const FEED_NAME = 'a DATEX II 3 SituationPublication'

/** How much is parsed between two turns of the event loop: a couple of milliseconds of saxes' work. */
const SLICE_CHARS = 64 * 1024

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Prefixes differ between publishers (Vegvesen's `ns12:` is another's `sit:`); the local name is what counts. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1)

function attributesOf(tag: SaxesTagPlain): Record<string, string> {
  const attributes: Record<string, string> = {}
  for (const [name, value] of Object.entries(tag.attributes)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue
    attributes[localName(name)] = value
  }
  return attributes
}

/**
 * Reads a DATEX II 3 situation snapshot a slice at a time, with a turn of the event loop
 * between slices, so that megabytes of XML never hold the loop for more than a few
 * milliseconds; no tree of the whole document is built, only one of each `situation`, handed
 * to `onSituation` as it closes. The root must be a `messageContainer` (or a bare `payload`)
 * holding a payload of type `SituationPublication`; an empty body, an HTML page, plain text,
 * malformed or cut-off XML, or another document (DATEX II 2's `d2LogicalModel`) is an
 * {@link InvalidFeedError} whose reason completes "Upstream … ".
 *
 * @example
 * const situations: XmlNode[] = []
 * const { texts } = await streamDatexSituations(body, (s) => situations.push(s))
 * texts['publicationTime'] // '2026-11-25T10:00:00.123+01:00'
 */
export async function streamDatexSituations(
  body: string,
  onSituation: (situation: XmlNode) => void,
): Promise<DatexDocument> {
  const text = screenXmlBody(body, FEED_NAME)
  const parser = new SaxesParser()
  let refusal: InvalidFeedError | undefined
  const refuse = (reason: string) => {
    refusal ??= new InvalidFeedError(reason)
  }
  let root: string | undefined
  let inPayload = false
  let payloadDepth = -1
  // The open elements of the situation being read, innermost last; empty outside situations.
  const open: XmlNode[] = []
  const texts: Record<string, string> = {}
  let leaf: { name: string; text: string; hasChildren: boolean } | undefined
  let depth = 0

  parser.on('opentag', (tag) => {
    const name = localName(tag.name)
    const attributes = attributesOf(tag)
    if (depth === 0) {
      root = name
      if (name === 'payload') inPayload = true
      else if (name !== 'messageContainer') refuse(`answered XML with root element <${name}> instead of ${FEED_NAME}`)
    }
    if (name === 'payload' && (depth === 0 || (depth === 1 && root === 'messageContainer'))) {
      const type = localName(attributes['type'] ?? '')
      if (type !== 'SituationPublication')
        refuse(`answered a DATEX II payload of type ${type || '(none)'} instead of ${FEED_NAME}`)
      inPayload = true
      payloadDepth = depth
    }
    if (open.length > 0 || (inPayload && depth === payloadDepth + 1 && name === 'situation')) {
      const node: XmlNode = { name, attributes, children: [], text: '' }
      open[open.length - 1]?.children.push(node)
      open.push(node)
    } else {
      if (leaf) leaf.hasChildren = true
      leaf = { name, text: '', hasChildren: false }
    }
    depth++
  })
  const onText = (chunk: string) => {
    if (open.length > 0) open[open.length - 1]!.text += chunk
    else if (leaf) leaf.text += chunk
  }
  parser.on('text', onText)
  parser.on('cdata', onText)
  parser.on('closetag', () => {
    depth--
    const node = open.pop()
    if (node) {
      node.text = node.text.trim()
      if (open.length === 0) onSituation(node)
      return
    }
    if (leaf && !leaf.hasChildren && !(leaf.name in texts) && leaf.text.trim() !== '')
      texts[leaf.name] = leaf.text.trim()
    leaf = undefined
  })
  parser.on('error', (error) => {
    // An entity no DTD declares is kept as it is: a stray one must not cost the whole country's situations.
    if (error.message.endsWith('undefined entity.')) return
    const message = error.message.replace(/^\d+:\d+: /, '').replace(/\s+/g, ' ')
    refuse(`answered malformed XML (${message} at line ${parser.line}) instead of ${FEED_NAME}`)
  })

  for (let start = 0; start < text.length && !refusal; start += SLICE_CHARS) {
    if (start > 0) await nextTurn()
    parser.write(text.slice(start, start + SLICE_CHARS))
  }
  if (!refusal) parser.close()
  if (!refusal && !inPayload) refuse(`answered a message container without a payload instead of ${FEED_NAME}`)
  if (refusal) throw refusal
  return { root: root!, texts }
}
