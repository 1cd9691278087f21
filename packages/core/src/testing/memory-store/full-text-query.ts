// The SQLite FTS5 query language, as far as a DatasetSearch's `match` uses it, parsed into a
// tree the in-memory store evaluates: phrases (quoted strings and bare words, `+` joining
// phrases), a trailing `*` making the last token a prefix, AND (also implied between
// neighbours), OR, NOT, parentheses, and column filters (`col : …`, `{a b} : …`, `-{a} : …`).
// NEAR and the `^` initial-token mark are refused by name rather than misread.

/** Words as FTS5's `unicode61` tokenizer with `remove_diacritics 0` sees them: runs of letters and digits, case folded. */
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu

/**
 * The tokens of a text as the SQLite store's full-text index holds them.
 *
 * @example
 * fullTextTokens('Båtloven § 3-1') // ['båtloven', '3', '1']
 */
export function fullTextTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? []
}

/** A sequence of tokens that must follow each other; the last one may be a prefix. */
export interface PhraseNode {
  kind: 'phrase'
  tokens: string[]
  prefix: boolean
  /** The columns it may match in; every indexed column when undefined. */
  columns: string[] | undefined
  /** Its place among the query's phrases (bm25 scores each phrase). */
  index: number
}

/** A node of the expression; `null` for what only empty phrases made (FTS5 drops a phrase without tokens). */
export type QueryNode =
  | PhraseNode
  | { kind: 'and' | 'or'; children: QueryNode[] }
  | { kind: 'not'; left: QueryNode; right: QueryNode }

/** A parsed MATCH expression and its phrases in order. */
export interface FullTextQuery {
  /** `null` when the query held only phrases without tokens: it matches nothing. */
  root: QueryNode | null
  phrases: PhraseNode[]
}

type Token =
  | { type: 'string'; text: string }
  | { type: 'word'; text: string }
  | { type: 'op'; text: '(' | ')' | '{' | '}' | ':' | '*' | '+' | '-' | '^' | ',' }

// FTS5's bareword characters: letters, digits, `_`, and every non-ASCII character.
const BAREWORD = /[\p{L}\p{N}_\u0080-\u{10FFFF}]/u

function lex(match: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < match.length) {
    const c = match[i]!
    if (/\s/.test(c)) {
      i++
    } else if (c === '"') {
      let text = ''
      i++
      for (;;) {
        if (i >= match.length) throw new SyntaxError(`fts5: syntax error near unterminated string in "${match}"`)
        if (match[i] === '"') {
          if (match[i + 1] === '"') {
            text += '"'
            i += 2
            continue
          }
          i++
          break
        }
        text += match[i++]
      }
      tokens.push({ type: 'string', text })
    } else if ('(){}:*+-^,'.includes(c)) {
      tokens.push({ type: 'op', text: c as '(' })
      i++
    } else if (BAREWORD.test(c)) {
      let text = ''
      while (i < match.length && BAREWORD.test(match[i]!)) text += match[i++]
      tokens.push({ type: 'word', text })
    } else {
      throw new SyntaxError(`fts5: syntax error near "${c}" in "${match}"`)
    }
  }
  return tokens
}

/**
 * Parses an FTS5 MATCH expression. Throws a SyntaxError for what FTS5 refuses (as the
 * SQLite store's promise rejects) and for the parts of the language it does not support.
 *
 * @example
 * parseFullTextQuery('{title} : ("aksjelov"* AND "asl")', ['title', 'body']).phrases.map((p) => p.tokens) // [['aksjelov'], ['asl']]
 */
export function parseFullTextQuery(match: string, tableColumns: readonly string[]): FullTextQuery {
  const tokens = lex(match)
  const phrases: PhraseNode[] = []
  let at = 0
  const peek = () => tokens[at]
  const isOp = (text: string) => peek()?.type === 'op' && peek()!.text === text
  const isKeyword = (text: 'AND' | 'OR' | 'NOT' | 'NEAR') => peek()?.type === 'word' && peek()!.text === text
  const expect = (text: string) => {
    if (!isOp(text)) throw new SyntaxError(`fts5: syntax error in "${match}": expected "${text}"`)
    at++
  }

  function checkColumns(names: string[]): string[] {
    for (const name of names) {
      if (!tableColumns.includes(name)) throw new SyntaxError(`no such column: ${name}`)
    }
    return names
  }

  function narrowed(outer: string[] | undefined, inner: string[]): string[] {
    return outer ? outer.filter((column) => inner.includes(column)) : inner
  }

  /** A column filter before a primary, or undefined when none is there. */
  function columnFilter(): string[] | undefined {
    const start = at
    let exclude = false
    if (isOp('-')) {
      exclude = true
      at++
    }
    let names: string[] | undefined
    if (isOp('{')) {
      at++
      names = []
      while (!isOp('}')) {
        const token = tokens[at++]
        if (!token || token.type === 'op') throw new SyntaxError(`fts5: syntax error in "${match}": a column list`)
        names.push(token.text)
      }
      at++
    } else if (
      (peek()?.type === 'word' || peek()?.type === 'string') &&
      tokens[at + 1]?.type === 'op' &&
      tokens[at + 1]!.text === ':'
    ) {
      names = [tokens[at++]!.text]
    }
    if (!names || !isOp(':')) {
      at = start
      return undefined
    }
    at++
    checkColumns(names)
    return exclude ? tableColumns.filter((column) => !names.includes(column)) : names
  }

  function phrase(columns: string[] | undefined): PhraseNode | null {
    const words: string[] = []
    let prefix = false
    for (;;) {
      const token = peek()
      // AND, OR and NOT are operators wherever they stand: a phrase spells them in quotes.
      const keyword = token?.type === 'word' && (token.text === 'AND' || token.text === 'OR' || token.text === 'NOT')
      if (!token || keyword || (token.type !== 'string' && token.type !== 'word'))
        throw new SyntaxError(`fts5: syntax error in "${match}": expected a phrase`)
      at++
      words.push(...fullTextTokens(token.text))
      if (isOp('*')) {
        at++
        prefix = true
      }
      if (!isOp('+')) break
      if (prefix) throw new SyntaxError(`fts5: syntax error in "${match}": "*" inside a phrase`)
      at++
    }
    // A phrase of no tokens ("§") is left out of the expression, as FTS5 leaves it out.
    if (words.length === 0) return null
    const node: PhraseNode = { kind: 'phrase', tokens: words, prefix, columns, index: phrases.length }
    phrases.push(node)
    return node
  }

  function primary(outer: string[] | undefined): QueryNode | null {
    if (isOp('^')) throw new SyntaxError(`The in-memory dataset store does not support FTS5's "^" in "${match}"`)
    if (isKeyword('NEAR') && tokens[at + 1]?.type === 'op' && tokens[at + 1]!.text === '(') {
      throw new SyntaxError(`The in-memory dataset store does not support FTS5's NEAR in "${match}"`)
    }
    const filter = columnFilter()
    const columns = filter ? narrowed(outer, filter) : outer
    if (isOp('(')) {
      at++
      const inner = or(columns)
      expect(')')
      return inner
    }
    return phrase(columns)
  }

  function not(columns: string[] | undefined): QueryNode | null {
    let left = primary(columns)
    while (isKeyword('NOT')) {
      at++
      const right = primary(columns)
      if (left && right) left = { kind: 'not', left, right }
    }
    return left
  }

  function joined(kind: 'and' | 'or', nodes: Array<QueryNode | null>): QueryNode | null {
    const children = nodes.filter((node): node is QueryNode => node !== null)
    return children.length === 0 ? null : children.length === 1 ? children[0]! : { kind, children }
  }

  function and(columns: string[] | undefined): QueryNode | null {
    const children = [not(columns)]
    for (;;) {
      if (isKeyword('AND')) {
        at++
      } else if (!peek() || isOp(')') || isKeyword('OR')) {
        break
      }
      children.push(not(columns))
    }
    return joined('and', children)
  }

  function or(columns: string[] | undefined): QueryNode | null {
    const children = [and(columns)]
    while (isKeyword('OR')) {
      at++
      children.push(and(columns))
    }
    return joined('or', children)
  }

  if (tokens.length === 0) throw new SyntaxError(`fts5: syntax error in "${match}": an empty query`)
  const root = or(undefined)
  if (at < tokens.length) throw new SyntaxError(`fts5: syntax error in "${match}" near "${tokens[at]!.text}"`)
  return { root, phrases }
}
