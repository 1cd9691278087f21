import { existsSync, readdirSync, readFileSync } from 'node:fs'
import * as sources from '@allmenning/sources'
import { describe, expect, it } from 'vitest'

/*
 * The docs' lists of what the workspace holds, checked against the workspace: the README's
 * package table against packages/ (every package and every subpath it exports), the built-in
 * sources the README and docs/sources.md name against builtInSources(), and the Layout of
 * docs/developing.md against the folders of packages/core/src, packages/ and examples/. A
 * package, source or folder added, renamed or removed without the docs following fails here,
 * naming what is missing or extra.
 */

const root = new URL('../../', import.meta.url)

/** The text of a `## ` section of a Markdown file, up to the next one. */
function section(heading: string, file = 'README.md'): string {
  const text = readFileSync(new URL(file, root), 'utf8')
  const start = text.indexOf(`\n## ${heading}\n`)
  if (start < 0) throw new Error(`${file} has no "## ${heading}" section`)
  const end = text.indexOf('\n## ', start + 1)
  return text.slice(start, end < 0 ? undefined : end)
}

/** The whole of a Markdown file, as one text. */
const page = (file: string) => readFileSync(new URL(file, root), 'utf8')

/** The rows of every Markdown table in a text whose header's first cell is `header`, as cells. */
function tableRows(text: string, header: string): string[][] {
  const rows: string[][] = []
  let inTable = false
  for (const line of text.split('\n')) {
    const cells = line.startsWith('|')
      ? line
          .split(/(?<!\\)\|/)
          .slice(1, -1)
          .map((cell) => cell.trim())
      : undefined
    if (!cells) inTable = false
    else if (cells[0] === header) inTable = true
    else if (inTable && !/^-+$/.test(cells[0]!)) rows.push(cells)
  }
  return rows
}

function code(cell: string): string {
  return /^`([^`]+)`$/.exec(cell)?.[1] ?? cell
}

/** What is in `expected` and not in `found`, and the other way round. */
function difference(found: Iterable<string>, expected: Iterable<string>) {
  const have = new Set(found)
  const want = new Set(expected)
  return { missing: [...want].filter((x) => !have.has(x)).sort(), extra: [...have].filter((x) => !want.has(x)).sort() }
}

function folders(path: string): string[] {
  return readdirSync(new URL(path, root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => entry.name)
}

const packages = folders('packages/').map((folder) => {
  const manifest = JSON.parse(readFileSync(new URL(`packages/${folder}/package.json`, root), 'utf8')) as {
    name: string
    exports?: Record<string, unknown>
  }
  const subpaths = Object.keys(manifest.exports ?? {}).filter((key) => key !== '.' && key !== './package.json')
  return {
    folder,
    name: manifest.name,
    entries: [manifest.name, ...subpaths.map((key) => `${manifest.name}/${key.slice(2)}`)],
  }
})

const builtInIds = sources.builtInSources({}).map((source) => source.id)

/** Each built-in source's factory is its id in camel case (`poi_norge` → `poiNorge`); the first test checks it. */
const factories = builtInIds.map((id) => id.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()))

describe('README.md', () => {
  const packageTable = tableRows(section('Packages'), 'package')

  it('lists every package of packages/ and every subpath they export, and nothing else', () => {
    const listed = packageTable.map((row) => code(row[0]!))
    // `@allmenning/sources/<id>` stands for one subpath per source.
    const matches = (entry: string, name: string) =>
      new RegExp(`^${entry.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/<[a-z]+>/g, '[a-z_]+')}$`).test(name)
    const entries = packages.flatMap((pkg) => pkg.entries)
    expect(
      entries.filter((name) => !listed.some((entry) => matches(entry, name))),
      'missing from the Packages table',
    ).toEqual([])
    expect(
      listed.filter((entry) => !entries.some((name) => matches(entry, name))),
      'in the Packages table but not in the workspace',
    ).toEqual([])
  })

  it('names every built-in source factory in the @allmenning/sources row, and no other', () => {
    const exported = sources as unknown as Record<string, (() => { id: string }) | undefined>
    expect(
      factories.map((name) => exported[name]?.().id),
      'the factories of @allmenning/sources, by id',
    ).toEqual(builtInIds)
    const row = packageTable.find((cells) => code(cells[0]!) === '@allmenning/sources')
    expect(row, 'the Packages table has no @allmenning/sources row').toBeDefined()
    const named = [...row![1]!.matchAll(/`(\w+)\(\)`/g)].map((match) => match[1]!)
    expect(difference(named, factories), 'factories named in the @allmenning/sources row').toEqual({
      missing: [],
      extra: [],
    })
  })

  it('lists every built-in source in the table of "Built-in sources", and no other', () => {
    const tabled = tableRows(section('Built-in sources'), 'source').map((row) => code(row[0]!))
    expect(difference(tabled, builtInIds), 'sources in the `source` table of "Built-in sources"').toEqual({
      missing: [],
      extra: [],
    })
  })

  it('has every built-in source as a subpath of @allmenning/sources', () => {
    const sourcesPackage = packages.find((pkg) => pkg.name === '@allmenning/sources')!
    // `<id>/testing` entries are the fakes of each source, listed as one row of their own.
    const subpaths = sourcesPackage.entries
      .slice(1)
      .filter((entry) => !entry.endsWith('/testing'))
      .map((entry) => entry.split('/').pop()!)
    expect(difference(subpaths, builtInIds), 'subpaths in packages/sources/package.json exports').toEqual({
      missing: [],
      extra: [],
    })
  })
})

describe('docs/sources.md', () => {
  it('gives every built-in source a part, and no other', () => {
    const text = page('docs/sources.md')
    const headed = [...text.matchAll(/^## `(\w+)`/gm)].map((match) => match[1]!)
    const tabled = tableRows(text, 'source').map((row) => code(row[0]!))
    expect(
      difference([...headed, ...tabled], builtInIds),
      'sources with a ## heading or a row in a `source` table of docs/sources.md',
    ).toEqual({
      missing: [],
      extra: [],
    })
  })
})

describe('docs/developing.md', () => {
  describe('Layout', () => {
    const layout = /```\n([\s\S]*?)```/.exec(section('Layout', 'docs/developing.md'))?.[1] ?? ''

    it('lists every folder of packages/core/src, and no other', () => {
      const listed = [...layout.matchAll(/^ {2}src\/([\w-]+)\s/gm)].map((match) => match[1]!)
      expect(difference(listed, folders('packages/core/src/')), 'src/ folders under packages/core in Layout').toEqual({
        missing: [],
        extra: [],
      })
    })

    it('lists every package and example folder, and no other', () => {
      const listed = [...layout.matchAll(/^((?:packages|examples)\/[\w-]+)\s/gm)].map((match) => match[1]!)
      const present = ['packages', 'examples'].flatMap((top) =>
        folders(`${top}/`)
          .filter((folder) => existsSync(new URL(`${top}/${folder}/package.json`, root)))
          .map((folder) => `${top}/${folder}`),
      )
      expect(difference(listed, present), 'packages/ and examples/ folders in Layout').toEqual({
        missing: [],
        extra: [],
      })
    })
  })
})
