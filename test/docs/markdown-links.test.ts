import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/*
 * Every relative link of the README, CHANGELOG, docs/ and the examples' READMEs points at a
 * file that exists, and its `#anchor` at a heading of that file (as GitHub makes anchors from
 * headings). A page moved or a heading renamed without its links following fails here,
 * naming the file, the line and the link. Links to other sites are not followed.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))

function markdownFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
}

const files = [
  'README.md',
  'CHANGELOG.md',
  ...markdownFiles('docs'),
  ...readdirSync(join(root, 'examples'))
    .map((example) => `examples/${example}/README.md`)
    .filter((path) => existsSync(join(root, path))),
]

/** The lines of a Markdown file, those of fenced code blocks blanked. */
function prose(text: string): string[] {
  let fenced = false
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return ''
    }
    return fenced ? '' : line
  })
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors of a Markdown file's headings, numbered as GitHub numbers repeated ones. */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const line of prose(readFileSync(path, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const base = headingAnchor(heading[1]!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    found.add(count === 0 ? base : `${base}-${count}`)
  }
  return found
}

/** The relative links of a Markdown file, with their line numbers. */
function links(path: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = []
  prose(readFileSync(join(root, path), 'utf8')).forEach((text, index) => {
    const outsideCode = text.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length))
    for (const match of outsideCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
      found.push({ line: index + 1, target })
    }
  })
  return found
}

/** What is wrong with one link, or undefined when it holds. */
function brokenBecause(from: string, target: string): string | undefined {
  const [pathPart = '', anchor] = target.split('#') as [string, string | undefined]
  const path = pathPart === '' ? join(root, from) : join(root, dirname(from), decodeURIComponent(pathPart))
  if (!existsSync(path)) return 'no such file'
  if (anchor === undefined || anchor === '') return undefined
  if (statSync(path).isDirectory() || !path.endsWith('.md'))
    return 'an anchor into something that is not a Markdown file'
  return anchors(path).has(decodeURIComponent(anchor)) ? undefined : 'no such heading'
}

describe('Markdown links', () => {
  it('finds the files and links it checks', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/configuration.md',
        'docs/writing-a-source.md',
        'examples/lambda/README.md',
      ]),
    )
    expect(files.flatMap(links).length).toBeGreaterThan(20)
  })

  it('makes anchors as GitHub does', () => {
    expect(headingAnchor('Datasets: publishing and pulling snapshots')).toBe(
      'datasets-publishing-and-pulling-snapshots',
    )
    expect(headingAnchor('MCP: every source as an MCP server')).toBe('mcp-every-source-as-an-mcp-server')
    expect(headingAnchor('`createGateway` options')).toBe('creategateway-options')
    expect(headingAnchor('NASA FIRMS')).toBe('nasa-firms')
  })

  it('tells a broken link from a sound one', () => {
    expect(brokenBecause('README.md', 'docs/configuration.md')).toBeUndefined()
    expect(brokenBecause('README.md', 'docs/no-such-page.md')).toBe('no such file')
    expect(brokenBecause('docs/mounting.md', 'configuration.md#no-such-heading')).toBe('no such heading')
  })

  it('has every relative link point at a file and heading that exist', () => {
    const broken = files.flatMap((file) =>
      links(file).flatMap(({ line, target }) => {
        const why = brokenBecause(file, target)
        return why ? [`${file}:${line} ${target} (${why})`] : []
      }),
    )
    expect(broken).toEqual([])
  })
})
