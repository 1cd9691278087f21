import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { ATTRIBUTE, InvalidFeedError, screenXmlBody, type XmlElement } from './xml-document.js'

/**
 * How much of a document is parsed between two turns of the event loop: a couple of
 * milliseconds of work for saxes, which reads Avinor's XML at tens of megabytes a second.
 */
const SLICE_CHARS = 64 * 1024

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** What {@link readXmlList} and {@link streamXmlDocument} look for: the root, the element holding the items, the items. */
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

/** The root's and the container's attributes (under `@_`), without their items. */
export interface StreamedDocument {
  root: XmlElement
  /** The container's attributes; `undefined` when the root has no such child. */
  container: XmlElement | undefined
}

/** Namespace prefixes do not matter to the feeds: `av:flight` is `flight`. */
const localName = (name: string) => {
  const colon = name.indexOf(':')
  return colon === -1 ? name : name.slice(colon + 1)
}

function attributesOf(tag: SaxesTagPlain): XmlElement {
  const element: XmlElement = {}
  for (const [name, value] of Object.entries(tag.attributes)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue
    element[ATTRIBUTE + localName(name)] = value
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

/** A child element's value: its text, or an object when it has attributes or children (the text then under `#text`). */
function childValue(child: OpenChild): unknown {
  const text = child.text.trim()
  if (!child.hasChildren && Object.keys(child.attributes).length === 0) return text
  return text === '' ? child.attributes : { ...child.attributes, '#text': text }
}

/** The parser of one document, fed in one piece or in slices, and what it found. */
interface ListReader {
  /** Feeds the next piece; false once the document is refused (reading further is pointless). */
  write(chunk: string): boolean
  /** Ends the document: the root and container it found, or the first reason it was refused. */
  finish(): StreamedDocument
}

function createListReader(spec: StreamedListSpec, onItem: (item: XmlElement) => void): ListReader {
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
        refuse(
          name.toLowerCase() === 'html'
            ? `answered an HTML page instead of ${spec.feedName}`
            : `answered XML with root element <${name}> instead of ${spec.feedName}`,
        )
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
    if (child && depth === itemDepth + 2) child.text += chunk
  })
  parser.on('cdata', (chunk) => {
    if (child && depth === itemDepth + 2) child.text += chunk
  })
  parser.on('closetag', () => {
    depth--
    if (child && depth === itemDepth + 1) {
      const value = childValue(child)
      const earlier = item![child.name]
      // A repeated child becomes a list.
      item![child.name] =
        earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value]
      child = undefined
    } else if (item && depth === itemDepth) {
      onItem(item)
      item = undefined
    }
  })
  parser.on('error', (error) => {
    // An entity no DTD declares (`&nope;`) is kept as it is, as saxes keeps it once it has said
    // so; the feeds declare none, and a stray one must not cost a whole feed.
    if (error.message.endsWith('undefined entity.')) return
    const message = error.message.replace(/^\d+:\d+: /, '').replace(/\s+/g, ' ')
    refuse(`answered malformed XML (${message} at line ${parser.line}) instead of ${spec.feedName}`)
  })

  return {
    write(chunk) {
      if (!refusal) parser.write(chunk)
      return !refusal
    },
    finish() {
      if (!refusal) parser.close()
      if (refusal) throw refusal
      return { root: root ?? {}, container }
    },
  }
}

/**
 * Reads an Avinor XML document in one go with the streaming parser (saxes), without building a
 * tree: each complete item element is handed to `onItem` (attributes under `@_`, child texts by
 * name, entities decoded). Throws {@link InvalidFeedError} for an empty, HTML or plain-text
 * body, malformed or truncated XML, or another root. For a body that may be large, use
 * {@link streamXmlDocument}, which reads the same way a slice at a time.
 *
 * @example
 * const names: XmlElement[] = []
 * readXmlList(body, { root: 'airportNames', feedName: 'the airportNames XML', item: 'airportName' }, (n) => names.push(n))
 */
export function readXmlList(
  body: string,
  spec: StreamedListSpec,
  onItem: (item: XmlElement) => void,
): StreamedDocument {
  const reader = createListReader(spec, onItem)
  reader.write(screenXmlBody(body, spec.feedName))
  return reader.finish()
}

/**
 * {@link readXmlList} a slice at a time, with a turn of the event loop between slices, so that
 * a document of megabytes never holds the event loop for more than a few milliseconds at once.
 * A document of one slice or less is read without waiting for a turn.
 *
 * @example
 * const flights: XmlElement[] = []
 * const { root } = await streamXmlDocument(body, { root: 'airport', feedName: 'the XmlFeed XML', container: 'flights', item: 'flight' }, (f) => flights.push(f))
 */
export async function streamXmlDocument(
  body: string,
  spec: StreamedListSpec,
  onItem: (item: XmlElement) => void,
): Promise<StreamedDocument> {
  const text = screenXmlBody(body, spec.feedName)
  const reader = createListReader(spec, onItem)
  for (let start = 0; start < text.length; start += SLICE_CHARS) {
    if (start > 0) await nextTurn()
    if (!reader.write(text.slice(start, start + SLICE_CHARS))) break
  }
  return reader.finish()
}
