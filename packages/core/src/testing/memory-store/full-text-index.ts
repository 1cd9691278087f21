import type { DatasetRow } from '@allmenning/core/source'
import { fullTextTokens, type FullTextQuery, type PhraseNode, type QueryNode } from './full-text-query.js'

/** One table's full-text index in memory: the tokens of each row's indexed columns. */
export interface FullTextIndex {
  /**
   * Matches `query` against every row; returns, for each matching row (by its place in the
   * table), its bm25 score as SQLite computes it with `weights` (lower is better).
   */
  match(query: FullTextQuery): Map<number, number>
}

// FTS5's bm25 constants (fts5_aux.c).
const k1 = 1.2
const b = 0.75

/** Positions at which `phrase` starts in `tokens`. */
function phraseHits(phrase: PhraseNode, tokens: readonly string[]): number {
  const want = phrase.tokens
  if (want.length === 0) return 0
  let hits = 0
  const last = want.length - 1
  for (let start = 0; start + want.length <= tokens.length; start++) {
    let ok = true
    for (let i = 0; i <= last && ok; i++) {
      const token = tokens[start + i]!
      ok = i === last && phrase.prefix ? token.startsWith(want[i]!) : token === want[i]
    }
    if (ok) hits++
  }
  return hits
}

/**
 * Builds the index of `rows` over `columns`, tokenized as the SQLite store's `unicode61
 * remove_diacritics 0` index tokenizes them. Scores follow FTS5's bm25: for each phrase of
 * the query an IDF from the rows that hold it, its hits weighted by column, and the row's
 * length against the average.
 *
 * @example
 * const index = createFullTextIndex(rows, ['title', 'body'], [10, 1])
 * index.match(parseFullTextQuery('"lov"*', ['title', 'body'])) // Map { 0 => -1.2, 2 => -0.4 }
 */
export function createFullTextIndex(
  rows: readonly DatasetRow[],
  columns: readonly string[],
  weights: readonly number[],
): FullTextIndex {
  const tokens = rows.map((row) =>
    columns.map((column) =>
      typeof row[column] === 'string' || typeof row[column] === 'number' ? fullTextTokens(String(row[column])) : [],
    ),
  )
  const lengths = tokens.map((row) => row.reduce((sum, column) => sum + column.length, 0))
  const averageLength = rows.length > 0 ? lengths.reduce((sum, length) => sum + length, 0) / rows.length : 0

  /** Hits of each phrase in each column of one row; only columns the phrase may match in count. */
  function hitsOf(phrase: PhraseNode, row: number): number[] {
    return columns.map((column, c) =>
      phrase.columns && !phrase.columns.includes(column) ? 0 : phraseHits(phrase, tokens[row]![c]!),
    )
  }

  function matches(node: QueryNode, row: number, hits: Map<PhraseNode, number[]>): boolean {
    switch (node.kind) {
      case 'phrase': {
        let found = hits.get(node)
        if (!found) {
          found = hitsOf(node, row)
          hits.set(node, found)
        }
        return found.some((n) => n > 0)
      }
      case 'and':
        return node.children.every((child) => matches(child, row, hits))
      case 'or':
        // Every branch is looked at, so each phrase's hits are known for the score.
        return node.children.map((child) => matches(child, row, hits)).some(Boolean)
      case 'not':
        return matches(node.left, row, hits) && !matches(node.right, row, hits)
    }
  }

  return {
    match(query) {
      const matched = new Map<number, Map<PhraseNode, number[]>>()
      for (let row = 0; row < rows.length; row++) {
        const hits = new Map<PhraseNode, number[]>()
        if (query.root && matches(query.root, row, hits)) matched.set(row, hits)
      }
      // IDF: how many rows of the whole table hold each phrase (in its columns).
      const idf = query.phrases.map((phrase) => {
        let holding = 0
        for (let row = 0; row < rows.length; row++) if (hitsOf(phrase, row).some((n) => n > 0)) holding++
        const value = Math.log((rows.length - holding + 0.5) / (holding + 0.5))
        return value <= 0 ? 1e-6 : value
      })
      const scores = new Map<number, number>()
      for (const [row, hits] of matched) {
        let score = 0
        for (const phrase of query.phrases) {
          const perColumn = hits.get(phrase) ?? hitsOf(phrase, row)
          const frequency = perColumn.reduce((sum, n, c) => sum + n * weights[c]!, 0)
          score +=
            (idf[phrase.index]! * (frequency * (k1 + 1))) /
            (frequency + k1 * (1 - b + (b * lengths[row]!) / averageLength))
        }
        scores.set(row, -score)
      }
      return scores
    },
  }
}
