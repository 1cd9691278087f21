/** One `@example` of a JSDoc comment. */
export interface JsdocExample {
  /** The TypeScript file, relative to the repository's root. */
  file: string
  /** 1-based line of the example's first code line (the one after `@example`). */
  line: number
  /** The code, each line's ` * ` removed; empty lines kept, so lines map one to one. */
  code: string
  /** Per code line, the length of the ` * ` removed from it. */
  columnOffsets: number[]
  /** Set when the example's first line is `// not compiled: why`. */
  notCompiled?: string
}

const JSDOC = /\/\*\*[\s\S]*?\*\//g
const NOT_COMPILED = /^\/\/\s*not compiled:\s*(.*)$/

/**
 * Every `@example` of the JSDoc comments in a TypeScript file. An example runs from the line
 * after `@example` to the next tag or the end of the comment; text on the `@example` line
 * itself is a caption, not code.
 *
 * @example
 * jsdocExamples('packages/core/src/gateway.ts', readFileSync('packages/core/src/gateway.ts', 'utf8'))
 */
export function jsdocExamples(file: string, source: string): JsdocExample[] {
  const examples: JsdocExample[] = []
  for (const comment of source.matchAll(JSDOC)) {
    const firstLine = source.slice(0, comment.index).split('\n').length
    const raw = comment[0]
      .replace(/^\/\*\*/, '')
      .replace(/\*\/$/, '')
      .split('\n')
    const prefixes = raw.map((line) => /^\s*\* ?/.exec(line)?.[0].length ?? 0)
    const lines = raw.map((line, i) => line.slice(prefixes[i]))
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*@example\b/.test(lines[i]!)) continue
      let end = i + 1
      while (end < lines.length && !/^\s*@\w/.test(lines[end]!)) end++
      const body = lines.slice(i + 1, end)
      while (body.length > 0 && body.at(-1)!.trim() === '') body.pop()
      const code = body.join('\n')
      const columnOffsets = prefixes.slice(i + 1, i + 1 + body.length)
      const notCompiled = NOT_COMPILED.exec(body[0]?.trim() ?? '')
      examples.push({
        file,
        line: firstLine + i + 1,
        code,
        columnOffsets,
        ...(notCompiled ? { notCompiled: notCompiled[1]!.trim() } : {}),
      })
      i = end - 1
    }
  }
  return examples
}
