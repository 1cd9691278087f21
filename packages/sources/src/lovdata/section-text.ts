import { attributeOf, childrenOf, collapse, hasClass, tagOf, textOfNode, type MarkupNode } from './markup-tree.js'

/** Elements that start a new block of text; anything else is inline and joins the text around it. */
const BLOCK = new Set([
  'article',
  'section',
  'p',
  'div',
  'ol',
  'ul',
  'li',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'header',
  'footer',
  'figure',
  'figcaption',
  'caption',
])

interface Block {
  text: string
  /** A list item: items follow each other line by line, other blocks are set apart by a blank line. */
  item: boolean
  /** The first block of a ledd outside any list: set apart by a blank line even after a list. */
  leddStart: boolean
}

const ROMAN: [number, string][] = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
]

function roman(n: number): string {
  let out = ''
  for (const [value, letters] of ROMAN)
    while (n >= value) {
      out += letters
      n -= value
    }
  return out
}

/** The marker a list item shows: its own `data-name` (`a.`), else what the list type counts. */
function itemMarker(item: MarkupNode, list: MarkupNode | undefined, index: number): string {
  const named = attributeOf(item, 'data-name')?.trim()
  if (named) return named
  if (!list || tagOf(list) === 'ul') return '–'
  const start = Number(attributeOf(list, 'start') ?? 1)
  const value = Number(attributeOf(item, 'value') ?? start + index)
  switch (attributeOf(list, 'type')) {
    case 'a':
      return `${String.fromCharCode(96 + ((value - 1) % 26) + 1)}.`
    case 'A':
      return `${String.fromCharCode(64 + ((value - 1) % 26) + 1)}.`
    case 'i':
      return `${roman(value)}.`
    case 'I':
      return `${roman(value).toUpperCase()}.`
    default:
      return `${value}.`
  }
}

/** Collects blocks of text from markup, with list markers and ledd numbers in place. */
class TextCollector {
  readonly blocks: Block[] = []
  private buffer = ''
  private depth = 0
  /** Written before the next block's text: a list marker or a ledd number. */
  private prefix: { text: string; unlessPresent: boolean } | undefined
  /** Set on entering a ledd (an `article` outside lists) until its first block is written. */
  private leddStart = false

  constructor(private readonly skip: (node: MarkupNode) => boolean) {}

  flush(): void {
    let text = collapse(this.buffer)
    this.buffer = ''
    if (text === '') return
    if (this.prefix) {
      const { text: prefix, unlessPresent } = this.prefix
      if (!(unlessPresent && text.startsWith(prefix))) text = `${prefix} ${text}`
      this.prefix = undefined
    }
    const indent = this.depth > 1 ? '  '.repeat(this.depth - 1) : ''
    this.blocks.push({ text: indent + text, item: this.depth > 0, leddStart: this.leddStart && this.depth === 0 })
    this.leddStart = false
  }

  walk(node: MarkupNode, list?: MarkupNode, index = 0): void {
    const text = textOfNode(node)
    if (text !== undefined) {
      this.buffer += text
      return
    }
    if (this.skip(node)) return
    const tag = tagOf(node) as string
    if (tag === 'br') {
      this.flush()
      return
    }
    if (tag === 'sup' && hasClass(node, 'footnotereference')) {
      this.buffer += '['
      this.walkChildren(node)
      this.buffer += ']'
      return
    }
    if (!BLOCK.has(tag)) {
      this.walkChildren(node)
      return
    }
    this.flush()
    if (tag === 'li') {
      this.prefix = { text: itemMarker(node, list, index), unlessPresent: false }
      this.depth += 1
      this.walkChildren(node)
      this.flush()
      this.depth -= 1
      // An item with no text of its own still shows its marker.
      if (this.prefix) this.blocks.push({ text: this.prefix.text, item: true, leddStart: false })
      this.prefix = undefined
      return
    }
    if (tag === 'tr') {
      const cells = childrenOf(node).filter((child) => tagOf(child) === 'td' || tagOf(child) === 'th')
      const row = cells.map((cell) => renderInline(cell, this.skip)).join(' | ')
      this.buffer += row
      this.flush()
      return
    }
    if (tag === 'article' && this.depth === 0) this.leddStart = true
    const numerator = hasClass(node, 'numberedLegalP') ? attributeOf(node, 'data-numerator') : undefined
    // The number is in the text of real files ("(2) Bygning …"); one that is only in the
    // attribute must not be lost. A list marker already waiting goes first.
    if (numerator && !this.prefix) this.prefix = { text: `(${numerator})`, unlessPresent: true }
    this.walkChildren(node)
    this.flush()
  }

  private walkChildren(node: MarkupNode): void {
    const isList = tagOf(node) === 'ol' || tagOf(node) === 'ul'
    let index = 0
    for (const child of childrenOf(node)) {
      if (isList && tagOf(child) === 'li') this.walk(child, node, index++)
      else this.walk(child)
    }
  }
}

function renderInline(node: MarkupNode, skip: (node: MarkupNode) => boolean): string {
  const collector = new TextCollector(skip)
  for (const child of childrenOf(node)) collector.walk(child)
  collector.flush()
  return collector.blocks.map((block) => block.text.trim()).join(' ')
}

/**
 * The text of markup nodes as a reader sees it: every ledd (`legalP`, `numberedLegalP` with
 * its number), list items with their markers (`a.`, `1.`, nested ones indented), table rows
 * with cells joined by ` | `, change notes and footnotes; ledd apart by a blank line, list
 * items line by line. `skip` leaves out nodes rendered elsewhere (the section header, a
 * nested section).
 *
 * @example
 * renderText(childrenOf(article), (n) => hasClass(n, 'legalArticleHeader'))
 * // '(1) I bygning …\n\n(2) Bygning med rom for varig opphold skal\na. ha radonsperre mot grunnen, og'
 */
export function renderText(nodes: MarkupNode[], skip: (node: MarkupNode) => boolean = () => false): string {
  const collector = new TextCollector(skip)
  for (const node of nodes) collector.walk(node)
  collector.flush()
  let text = ''
  let previous: Block | undefined
  for (const block of collector.blocks) {
    if (previous) text += (!previous.item && !block.item) || block.leddStart ? '\n\n' : '\n'
    text += block.text
    previous = block
  }
  return text
}
