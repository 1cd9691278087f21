import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtInSources } from './built-in-sources.js'

// One room per change (issue #37): every built-in source is laid out the same way, its tests
// beside it, so a change to a source touches its folder and nothing else, and a reader who
// knows one source finds their way in every other.

const src = import.meta.dirname

/** The folders of src/ that are not sources, and why they are there. */
const notSources: Record<string, string> = {
  shared: 'helpers several sources use (the municipality register, request budgets, WGS84 points…)',
  testing: "the package's ./testing entry: the offline demo of every built-in source at once",
}

/** One file every source folder holds: where, what it must contain to be what its name says, and why. */
interface ShapeFile {
  path: (id: string) => string
  holds?: RegExp
  why: string
}

const shape: ShapeFile[] = [
  { path: () => 'index.ts', why: 'the source: defineSource with its outline, the ./<id> entry' },
  { path: () => 'operations.ts', holds: /export /, why: 'the loader deferOperations calls, in the outline’s order' },
  // File names are kebab-case: poi_norge's tests are poi-norge.test.ts.
  { path: (id) => `${id.replace(/_/g, '-')}.test.ts`, why: "the source's own tests" },
  {
    path: () => 'source-check.test.ts',
    holds: /checkSource\(/,
    why: 'checkSource of @allmenning/core/testing, with an example for every operation',
  },
  {
    path: () => 'testing/index.ts',
    holds: /'\.\/demo-upstreams\.js'/,
    why: 'the ./<id>/testing entry: the fakes, and the demo upstreams',
  },
  {
    path: () => 'testing/demo-upstreams.ts',
    holds: /export async function startDemoUpstreams\(/,
    why: "the offline demo: every upstream of the source played from the source's fixtures",
  },
  {
    path: () => 'testing/demo-upstreams.test.ts',
    holds: /startDemoUpstreams/,
    why: 'the demo answers Oslo, 0301, 03 and the documented examples',
  },
]

/**
 * Files a source may lack, by source id and path, each with the reason. None today: a source
 * that cannot have one of the files above names it here, and the test fails once it is there.
 */
const exceptions: Record<string, Record<string, string>> = {}

/** What the source folder `dir` of source `id` lacks of {@link shape}, and exceptions no longer needed. */
function shapeGaps(dir: string, id: string, excepted: Record<string, Record<string, string>> = exceptions): string[] {
  const gaps: string[] = []
  for (const file of shape) {
    const path = file.path(id)
    const reason = excepted[id]?.[path]
    const there = existsSync(join(dir, path))
    if (reason !== undefined) {
      if (there) gaps.push(`${id}: has ${path} now, so its exception ("${reason}") goes`)
    } else if (!there) gaps.push(`${id}: no ${path} (${file.why})`)
    else if (file.holds && !file.holds.test(readFileSync(join(dir, path), 'utf8')))
      gaps.push(`${id}: ${path} holds no ${file.holds.source} (${file.why})`)
  }
  return gaps
}

/** The entries `./<id>` and `./<id>/testing` a source needs in the package's exports, those missing. */
function exportGaps(ids: string[], exported: string[]): string[] {
  return ids.flatMap((id) => [`./${id}`, `./${id}/testing`].filter((entry) => !exported.includes(entry)))
}

const folders = readdirSync(src)
  .filter((name) => statSync(join(src, name)).isDirectory() && !(name in notSources))
  .sort()

describe('every built-in source folder has the same shape', () => {
  it('the folders of src/ are the built-in sources, one folder each, named by the source id', () => {
    const ids = builtInSources()
      .map((source) => source.id)
      .sort()
    expect(folders).toEqual(ids)
    expect(folders.length).toBeGreaterThanOrEqual(29)
  })

  it('each holds its source, its operations, its tests, its source check and its demo upstreams with their test', () => {
    expect(folders.flatMap((id) => shapeGaps(join(src, id), id))).toEqual([])
  })

  it("each has its entries in the package's exports, the source's and its testing one", () => {
    const manifest = JSON.parse(readFileSync(join(src, '../package.json'), 'utf8')) as { exports: object }
    expect(exportGaps(folders, Object.keys(manifest.exports))).toEqual([])
  })

  it('sees a missing file, a file without what it is for, a stale exception and a missing entry (the checks above can fail)', () => {
    const root = mkdtempSync(join(tmpdir(), 'source-shape-'))
    try {
      const dir = join(root, 'made_up')
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      write('index.ts', 'export const madeUp = 1\n')
      write('operations.ts', 'export const operations = []\n')
      write('made-up.test.ts', '')
      write('source-check.test.ts', 'await checkSource(madeUp, {})\n')
      write('testing/index.ts', "export * from './demo-upstreams.js'\n")
      write('testing/demo-upstreams.ts', 'export async function startDemoUpstreams() {}\n')
      write('testing/demo-upstreams.test.ts', 'await startDemoUpstreams()\n')
      expect(shapeGaps(dir, 'made_up')).toEqual([])

      rmSync(join(dir, 'testing/demo-upstreams.test.ts'))
      write('source-check.test.ts', '// no check here\n')
      expect(shapeGaps(dir, 'made_up')).toEqual([
        'made_up: source-check.test.ts holds no checkSource\\( (checkSource of @allmenning/core/testing, with an example for every operation)',
        'made_up: no testing/demo-upstreams.test.ts (the demo answers Oslo, 0301, 03 and the documented examples)',
      ])
      // Excepted, a missing file is no gap; excepted, a file that is there is one.
      const excepted = { made_up: { 'testing/demo-upstreams.test.ts': 'why not', 'index.ts': 'why not' } }
      expect(shapeGaps(dir, 'made_up', excepted).filter((gap) => !gap.includes('source-check'))).toEqual([
        'made_up: has index.ts now, so its exception ("why not") goes',
      ])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
    expect(exportGaps(['made_up', 'avinor'], ['./avinor', './avinor/testing', './made_up'])).toEqual([
      './made_up/testing',
    ])
    // The real tree is read: a source folder the list of sources does not name would show.
    expect(folders).toContain('avinor')
    expect(folders).not.toContain('shared')
  })
})
