import { readdirSync, readFileSync } from 'node:fs'
import { upstreamEnvironmentVariable } from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { describe, expect, it } from 'vitest'
import { weather } from '../../examples/custom-source/src/weather.js'

/*
 * The one table of the examples' environment variables (docs/configuration.md), checked against what the code
 * reads: the examples' own files, and the functions they call to read the environment for
 * them. A variable read and not in the table, or in the table and read by nothing, fails here.
 */

const root = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')

/** The functions the examples hand their environment to, which read it for them. */
const readers = [
  'packages/core/src/gateway-options-from-env.ts',
  'packages/core/src/server-settings-from-env.ts',
  'packages/sources/src/built-in-sources.ts',
  'packages/datasets/src/follow/dataset-store-from-env.ts',
  'packages/datasets/src/store/store-path.ts',
  'packages/datasets/src/snapshot/snapshot-client.ts',
  'packages/datasets/src/store/sqlite-connection.ts',
  'packages/observability/src/observability-from-env.ts',
]

function sourceFiles(folder: string): string[] {
  return readdirSync(new URL(folder, root), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => `${entry.parentPath.slice(new URL(root).pathname.length)}/${entry.name}`)
    .filter((path) => !path.includes('/testing/'))
}
const exampleFiles = readdirSync(new URL('examples/', root)).flatMap((example) =>
  sourceFiles(`examples/${example}/src`),
)

/** Code without its comments, whose examples read no environment. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')

/** String constants of the packages, to resolve `env[SOME_VARIABLE]`. */
const constants = new Map<string, string>()
for (const path of ['packages/core/src', 'packages/sources/src', 'packages/datasets/src'].flatMap(sourceFiles)) {
  for (const match of read(path).matchAll(/\bconst ([A-Za-z_][A-Za-z0-9_]*) = '([A-Z][A-Z0-9_]*)'/g))
    constants.set(match[1]!, match[2]!)
}

/** The variables a file reads: `env.X`, `process.env.X`, `env['X']`, `env[CONSTANT]`, `helper(env, 'X')`. */
function variablesRead(text: string): string[] {
  const body = code(text)
  const found = [
    ...[...body.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)].map((m) => m[1]!),
    ...[...body.matchAll(/\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)].map((m) => m[1]!),
    ...[...body.matchAll(/\benv\[([A-Za-z_][A-Za-z0-9_]*)\]/g)]
      .map((m) => constants.get(m[1]!))
      .filter((name) => name !== undefined),
    ...[...body.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'\)/g)].map((m) => m[1]!),
  ]
  // The upstream overrides: ALLMENNING_UPSTREAM_<ID> (and its _TIMEOUT_MS) for every upstream given.
  if (/\bbuiltInSources\(/.test(body))
    found.push(
      ...builtInSources({}).flatMap((source) => source.upstreams.map((u) => upstreamEnvironmentVariable(u.id))),
      'ALLMENNING_UPSTREAM_<ID>_TIMEOUT_MS',
    )
  if (/\bupstreamOverridesFromEnvironment\(/.test(body))
    found.push(
      ...weather().upstreams.map((u) => upstreamEnvironmentVariable(u.id)),
      'ALLMENNING_UPSTREAM_<ID>_TIMEOUT_MS',
    )
  return found
}

/** The variables in the first column of the table under "Environment variables of the examples" in docs/configuration.md. */
function documented(): string[] {
  const page = read('docs/configuration.md')
  const start = page.indexOf('\n## Environment variables of the examples\n')
  if (start < 0) throw new Error('docs/configuration.md has no "## Environment variables of the examples" section')
  const section = page.slice(start, page.indexOf('\n## ', start + 1))
  const rows = section.split('\n').filter((line) => line.startsWith('| `'))
  return rows.flatMap((row) => [...row.split(' | ')[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
}

describe("docs/configuration.md's table of the examples' environment variables", () => {
  const readByCode = new Map<string, string[]>()
  for (const path of [...exampleFiles, ...readers]) {
    for (const name of variablesRead(read(path))) readByCode.set(name, [...(readByCode.get(name) ?? []), path])
  }
  const table = documented()

  it('finds what it checks: the examples, the shared reading, and a table', () => {
    expect(exampleFiles).toEqual(
      expect.arrayContaining([
        'examples/express-server/src/main.ts',
        'examples/lambda/src/handler.ts',
        'examples/custom-source/src/app.ts',
      ]),
    )
    expect([...readByCode.keys()]).toEqual(
      expect.arrayContaining([
        'PORT',
        'REDIS_URL',
        'ALLMENNING_RATE_LIMIT',
        'ALLMENNING_NOBIL_API_KEY',
        'ALLMENNING_UPSTREAM_STATNETT',
        'ALLMENNING_UPSTREAM_MET_ALERTS',
        'ALLMENNING_DATASETS_SNAPSHOT',
      ]),
    )
    expect(table.length).toBeGreaterThan(30)
  })

  it('lists every variable the code reads', () => {
    const missing = [...readByCode]
      .filter(([name]) => !table.includes(name))
      .map(([name, paths]) => `${name} (read in ${[...new Set(paths)].join(', ')})`)
    expect(missing, 'read by the examples but not in the table of docs/configuration.md').toEqual([])
  })

  it('lists no variable nothing reads', () => {
    expect(
      table.filter((name) => !readByCode.has(name)),
      'in the table of docs/configuration.md but read by nothing',
    ).toEqual([])
  })
})
