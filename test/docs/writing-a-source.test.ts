import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')
const guide = read('docs/writing-a-source.md')

/** Every TypeScript block of the guide, with the file it says it quotes (if any). */
function blocks(markdown: string): { file: string | undefined; code: string }[] {
  const found: { file: string | undefined; code: string }[] = []
  const fence = /(?:<!-- quote: (\S+) -->\n)?```ts\n([\s\S]*?)```/g
  for (const match of markdown.matchAll(fence)) found.push({ file: match[1], code: match[2]! })
  return found
}

describe('docs/writing-a-source.md', () => {
  const quotes = blocks(guide)

  it('marks every TypeScript block as a quote of a file in the repository', () => {
    expect(quotes.length).toBeGreaterThanOrEqual(15)
    expect(quotes.filter((q) => q.file === undefined).map((q) => q.code.slice(0, 60))).toEqual([])
  })

  it.each(quotes.filter((q) => q.file !== undefined).map((q) => [q.file!, q.code.split('\n')[0]!, q.code] as const))(
    'quotes %s as it is: %s',
    (file, _firstLine, code) => {
      expect(existsSync(new URL(file, root))).toBe(true)
      expect(read(file)).toContain(code)
    },
  )

  it('names, in its italic captions, the same file each quote comes from', () => {
    const captions = [...guide.matchAll(/\*From `([^`]+)`:\*\n\n<!-- quote: (\S+) -->/g)]
    expect(captions.length).toBeGreaterThanOrEqual(8)
    for (const [, caption, file] of captions) expect(caption).toBe(file)
  })
})
