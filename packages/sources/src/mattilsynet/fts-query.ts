/**
 * An FTS5 query matching names that hold every word given (each as a prefix), or null when
 * the text has no word: user text never reaches FTS5's syntax.
 *
 * @example
 * nameQuery('Pizza  Bakeren!') // '"pizza"* "bakeren"*'
 */
export function nameQuery(text: string): string | null {
  const words =
    text
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  if (words.length === 0) return null
  return words
    .slice(0, 8)
    .map((word) => `"${word}"*`)
    .join(' ')
}
