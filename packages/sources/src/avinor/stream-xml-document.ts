import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { InvalidFeedError, screenXmlBody, type XmlElement } from './xml-document.js'

/**
 * How much of a document is parsed between two turns of the event loop: a couple of
 * milliseconds of work for saxes, which reads Avinor's XML at tens of megabytes a second.
 */
const SLICE_CHARS = 64 * 1024

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** What {@link streamXmlDocument} looks for: the root, the element holding the items, the items. */
export interface StreamedListSpec {
  /** The root element's name (`airport`). */
  root: string
  /** Names the expected document in errors ("the XmlFeed XML"). */
  feedName: string
  /** The element holding the items, below the root (`flights`); the root itself when absent. */
  container?: string
  /** The repeated element (`flight`). */
  item: string
}

/** The root and the container, their attributes as fast-xml-parser gives them, without their items. */
export interface StreamedDocument {
  root: XmlElement
  /** The container's attributes; `undefined` when the root has no such child. */
  container: XmlElement | undefined
}

/** fast-xml-parser with `removeNSPrefix`: `av:flight` is `flight`. */
const localName = (name: string) => {
  const colon = name.indexOf(':')
  return colon === -1 ? name : name.slice(colon + 1)
}

/**
 * saxes decodes entities; the readers of these elements (`textOf`) decode them again, as they
 * must for fast-xml-parser, which leaves them. Escaping every `&` makes that second decoding
 * give back exactly the decoded text.
 */
const undecoded = (text: string) => (text.includes('&') ? text.replaceAll('&', '&amp;') : text)

function attributesOf(tag: SaxesTagPlain): XmlElement {
  const element: XmlElement = {}
  for (const [name, value] of Object.entries(tag.attributes)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue
    element[`@_${localName(name)}`] = undecoded(value)
  }
  return element
}

/** One child element of an item, until it closes. */
interface OpenChild {
  name: string
  attributes: XmlElement
  text: string
  hasChildren: boolean
}

/** A child element's value the way fast-xml-parser gives it: its text, or an object when it has attributes or children. */
function childValue(child: OpenChild): unknown {
  const text = child.text.trim()
  if (!child.hasChildren && Object.keys(child.attributes).length === 0) return text
  return text === '' ? child.attributes : { ...child.attributes, '#text': text }
}

/**
 * Reads a large Avinor XML document with a streaming parser (saxes), a slice at a time with a
 * turn of the event loop between slices, so that a document of megabytes never holds the
 * event loop for more than a few milliseconds at once, and never builds a tree of the whole.
 * Each complete item element is handed to `onItem` shaped exactly as fast-xml-parser shapes
 * it in {@link readXmlDocument} (attributes under `@_`, child texts, entities left for
 * `textOf`), so the same readers map it. Throws {@link InvalidFeedError} for what
 * `readXmlDocument` refuses: an empty, HTML or plain-text body, malformed XML, another root.
 *
 * @example
 * const flights: XmlElement[] = []
 * const { root } = await streamXmlDocument(body, { root: 'airport', feedName: 'the XmlFeed XML', container: 'flights', item: 'flight' }, (f) => flights.push(f))
 */
export async function streamXmlDocument(body: string, spec: StreamedListSpec, onItem: (item: XmlElement) => void): Promise<StreamedDocument> {
  const text = screenXmlBody(body, spec.feedName)
  const parser = new SaxesParser()
  let refusal: InvalidFeedError | undefined
  const refuse = (reason: string) => {
    refusal ??= new InvalidFeedError(reason)
  }

  let depth = 0
  let root: XmlElement | undefined
  let container: XmlElement | undefined
  const itemDepth = spec.container === undefined ? 1 : 2
  let item: XmlElement | undefined
  let child: OpenChild | undefined

  parser.on('opentag', (tag) => {
    const name = localName(tag.name)
    if (depth === 0) {
      if (name !== spec.root) {
        refuse(name.toLowerCase() === 'html' ? `answered an HTML page instead of ${spec.feedName}` : `answered XML with root element <${name}> instead of ${spec.feedName}`)
      }
      root = attributesOf(tag)
    } else if (depth === 1 && spec.container !== undefined && name === spec.container && container === undefined) {
      container = attributesOf(tag)
    } else if (depth === itemDepth && name === spec.item && (spec.container === undefined || container !== undefined)) {
      item = attributesOf(tag)
    } else if (item && depth === itemDepth + 1) {
      child = { name, attributes: attributesOf(tag), text: '', hasChildren: false }
    } else if (child && depth > itemDepth + 1) {
      child.hasChildren = true
    }
    depth++
  })
  parser.on('text', (chunk) => {
    if (child && depth === itemDepth + 2) child.text += undecoded(chunk)
  })
  // fast-xml-parser keeps CDATA as it is, without decoding it.
  parser.on('cdata', (chunk) => {
    if (child && depth === itemDepth + 2) child.text += chunk
  })
  parser.on('closetag', () => {
    depth--
    if (child && depth === itemDepth + 1) {
      const value = childValue(child)
      const earlier = item![child.name]
      // A repeated child becomes a list, as fast-xml-parser makes it.
      item![child.name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value]
      child = undefined
    } else if (item && depth === itemDepth) {
      onItem(item)
      item = undefined
    }
  })
  parser.on('error', (error) => {
    // fast-xml-parser keeps an entity no DTD declares as it is (`&nope;`); saxes keeps it too
    // once it has said so, and the feed reads the same either way.
    if (error.message.endsWith('undefined entity.')) return
    const message = error.message.replace(/^\d+:\d+: /, '').replace(/\s+/g, ' ')
    refuse(`answered malformed XML (${message} at line ${parser.line}) instead of ${spec.feedName}`)
  })

  for (let start = 0; start < text.length && !refusal; start += SLICE_CHARS) {
    if (start > 0) await nextTurn()
    parser.write(text.slice(start, start + SLICE_CHARS))
  }
  if (!refusal) parser.close()
  if (refusal) throw refusal
  return { root: root ?? {}, container }
}
