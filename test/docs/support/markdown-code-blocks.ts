/** One fenced code block of a Markdown file. */
export interface MarkdownCodeBlock {
  /** The Markdown file, relative to the repository's root (`README.md`). */
  file: string
  /** 1-based line of the block's first code line (the one after the opening fence). */
  line: number
  /** The info string's first word, lower-cased (`ts`, `sh`, `json`; `''` when none). */
  language: string
  /** The code, its fence's indentation removed. */
  code: string
  /** Per code line, how much indentation was removed from it. */
  columnOffsets: number[]
  /**
   * What an HTML comment on the line before the fence says about the block:
   * `<!-- quote: examples/custom-source/src/app.ts -->` (the block is an excerpt of that file) or
   * `<!-- not compiled: why -->`.
   */
  marker?: { kind: 'quote' | 'not compiled'; value: string }
}

const OPENING = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/
const MARKER = /^\s*<!--\s*(quote|not compiled):\s*(.*?)\s*-->\s*$/

/**
 * Every fenced code block of a Markdown file, with the line it starts on, so a failure can
 * point at it. A fence indented in a list item keeps its code's relative indentation.
 *
 * @example
 * markdownCodeBlocks('README.md', readFileSync('README.md', 'utf8')).filter((b) => b.language === 'ts')
 */
export function markdownCodeBlocks(file: string, markdown: string): MarkdownCodeBlock[] {
  const lines = markdown.split('\n')
  const blocks: MarkdownCodeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const opening = OPENING.exec(lines[i]!)
    if (!opening) continue
    const [, indent = '', fence = '', info = ''] = opening
    const closing = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`)
    let end = i + 1
    while (end < lines.length && !closing.test(lines[end]!)) end++
    const body = lines.slice(i + 1, end)
    const columnOffsets = body.map((line) =>
      line.startsWith(indent) ? indent.length : line.length - line.trimStart().length,
    )
    const code = body.map((line, j) => line.slice(columnOffsets[j])).join('\n')
    const marker = i > 0 ? MARKER.exec(lines[i - 1]!) : null
    blocks.push({
      file,
      line: i + 2,
      language: info.toLowerCase(),
      code,
      columnOffsets,
      ...(marker ? { marker: { kind: marker[1] as 'quote' | 'not compiled', value: marker[2]! } } : {}),
    })
    i = end
  }
  return blocks
}
