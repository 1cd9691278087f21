/**
 * One node of a parsed document, as fast-xml-parser returns it in document order
 * (`preserveOrder`): `{ tag: children, ':@': attributes }` or `{ '#text': text }`.
 */
export type MarkupNode = Record<string, unknown>

// The parser itself is in parse-markup.ts, so that what only walks nodes does not load it.

const ATTRIBUTES = ':@'
const TEXT = '#text'

/**
 * The element name of a node; undefined for text.
 *
 * @example
 * tagOf({ article: [], ':@': { class: 'legalP' } }) // 'article'
 */
export function tagOf(node: MarkupNode): string | undefined {
  for (const key in node) if (key !== ATTRIBUTES && key !== TEXT) return key
  return undefined
}

/**
 * The text of a text node; undefined for an element.
 *
 * @example
 * textOfNode({ '#text': 'Lov' }) // 'Lov'
 */
export function textOfNode(node: MarkupNode): string | undefined {
  const text = node[TEXT]
  return text === undefined ? undefined : String(text)
}

/**
 * The child nodes of an element (none for text).
 *
 * @example
 * childrenOf(article).filter((child) => tagOf(child) === 'article')
 */
export function childrenOf(node: MarkupNode): MarkupNode[] {
  const tag = tagOf(node)
  const children = tag === undefined ? undefined : node[tag]
  return Array.isArray(children) ? (children as MarkupNode[]) : []
}

/**
 * One attribute of an element; undefined when absent.
 *
 * @example
 * attributeOf(article, 'data-name') // '§13-5'
 */
export function attributeOf(node: MarkupNode, name: string): string | undefined {
  const attributes = node[ATTRIBUTES] as Record<string, unknown> | undefined
  const value = attributes?.[name]
  return value === undefined ? undefined : String(value)
}

/**
 * Whether an element carries a class (`class="legalArticle"`, `class="a b"`).
 *
 * @example
 * hasClass(node, 'legalArticle')
 */
export function hasClass(node: MarkupNode, name: string): boolean {
  const classes = attributeOf(node, 'class')
  return classes?.split(/\s+/).includes(name) ?? false
}

/**
 * The first element, depth first, that `test` accepts.
 *
 * @example
 * const main = findElement(nodes, (n) => tagOf(n) === 'main')
 */
export function findElement(nodes: MarkupNode[], test: (node: MarkupNode) => boolean): MarkupNode | undefined {
  for (const node of nodes) {
    if (tagOf(node) === undefined) continue
    if (test(node)) return node
    const found = findElement(childrenOf(node), test)
    if (found) return found
  }
  return undefined
}

/**
 * All text under a node, in order, whitespace collapsed.
 *
 * @example
 * plainText(header) // 'Radon'
 */
export function plainText(node: MarkupNode): string {
  const parts: string[] = []
  const collect = (n: MarkupNode) => {
    const text = textOfNode(n)
    if (text !== undefined) parts.push(text)
    else for (const child of childrenOf(n)) collect(child)
  }
  collect(node)
  return collapse(parts.join(''))
}

/**
 * Collapses runs of white space (no-break spaces included) into one space and trims.
 *
 * @example
 * collapse(' a \n\u00a0b ') // 'a b'
 */
export function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim()
}
