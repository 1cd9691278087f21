import { readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// What each workspace package's code imports, read from its sources (tests excluded): every
// package it names must be one it declares, no two workspace packages may import each other
// round a cycle, and what a package offers outside its testing entries must not reach a fake
// or a fixture. What a published entry (testing ones included) reaches may use only the
// package's dependencies and peer dependencies; helpers that only tests use may also use the
// tools every workspace's tests share (the root devDependencies), but never another
// workspace package the package does not declare. A package's own tests (and the helpers
// outside it they import by path) may use what the package declares, dev ones included, and
// the root devDependencies, but never a workspace package that depends on it: such a test
// belongs in test/, above both.

const root = resolve(import.meta.dirname, '../..')
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>

interface Workspace {
  name: string
  dir: string
  /** What the package brings wherever it is installed: dependencies, peer and optional ones. */
  shipped: Set<string>
  /** Its devDependencies. */
  dev: Set<string>
  /** Entry files (src/…/*.ts) that are not testing entries. */
  entries: string[]
  /** Every entry file, testing entries included. */
  published: string[]
}

const names = (manifest: Record<string, unknown>, fields: string[]) =>
  new Set(fields.flatMap((field) => Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})))
const rootDev = names(readJson(join(root, 'package.json')), ['devDependencies'])

function workspaces(): Workspace[] {
  return (readJson(join(root, 'package.json')).workspaces as string[]).map((path) => {
    const dir = join(root, path)
    const manifest = readJson(join(dir, 'package.json'))
    const shipped = names(manifest, ['dependencies', 'peerDependencies', 'optionalDependencies'])
    const dev = names(manifest, ['devDependencies'])
    let tsup = ''
    try {
      tsup = readFileSync(join(dir, 'tsup.config.ts'), 'utf8')
    } catch {
      // A workspace without a build has no entries to check.
    }
    // The entries: each export's built file traced back to its source, and any other file the build names.
    const exported = JSON.stringify(manifest.exports ?? {})
    const fromExports = [...exported.matchAll(/"\.\/dist\/((?:[^"]+\/)?index)\.js"/g)].map((m) => `src/${m[1]}.ts`)
    const fromTsup = [...tsup.matchAll(/'(src\/[^']+\.ts)'/g)].map((m) => m[1]!)
    const published = [...new Set([...fromExports, ...fromTsup])].map((entry) => join(dir, entry))
    const entries = published.filter((entry) => !/(^|\/)testing\//.test(relative(dir, entry)))
    return { name: manifest.name as string, dir, shipped, dev, entries, published }
  })
}

function sourceFiles(dir: string, tests = false): string[] {
  const files: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path, tests))
    else if (/\.tsx?$/.test(name) && /\.test\.tsx?$/.test(name) === tests && !name.endsWith('.d.ts')) files.push(path)
  }
  return files
}

/** The test files of a package (`*.test.ts` under its src). */
const testFiles = (dir: string) => sourceFiles(dir, true)

/** The specifiers of a file's imports and re-exports (and literal `import()`s), comments and strings aside. */
function specifiers(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((f) => f.fileName)
}

const builtins = new Set(builtinModules)
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')
const isBare = (specifier: string) =>
  !specifier.startsWith('.') &&
  !specifier.startsWith('/') &&
  !specifier.startsWith('node:') &&
  !builtins.has(packageOf(specifier))

/** A relative import's file: `./a.js` is `a.ts` or `a/index.ts`; JSON and others as they are. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate
    } catch {
      // Not this one.
    }
  }
  return undefined
}

/** The files of its own package that `entry` imports, directly or not, bare specifiers aside. */
function reachedFrom(entry: string): Set<string> {
  const seen = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file) || !file.endsWith('.ts')) continue
    seen.add(file)
    for (const specifier of specifiers(file)) {
      if (isBare(specifier)) continue
      const target = resolveRelative(file, specifier)
      if (target) queue.push(target)
    }
  }
  return seen
}

const all = workspaces()
const byName = new Map(all.map((w) => [w.name, w]))

/** Which workspace packages each one's code imports or declares it needs at run time. */
function dependencyEdges(): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>()
  for (const workspace of all) {
    const to = new Set<string>()
    for (const file of sourceFiles(join(workspace.dir, 'src'))) {
      for (const specifier of specifiers(file).filter(isBare)) {
        const name = packageOf(specifier)
        if (name !== workspace.name && byName.has(name)) to.add(name)
      }
    }
    // What a package declares it needs at run time counts too, even when it loads it by name.
    for (const name of workspace.shipped) if (byName.has(name)) to.add(name)
    edges.set(workspace.name, to)
  }
  return edges
}

/** The workspace packages that depend on `name`, directly or through others. */
function dependentsOf(name: string, edges: Map<string, Set<string>>): Set<string> {
  const dependents = new Set<string>()
  let grew = true
  while (grew) {
    grew = false
    for (const [from, to] of edges) {
      if (from === name || dependents.has(from)) continue
      if (to.has(name) || [...to].some((target) => dependents.has(target))) {
        dependents.add(from)
        grew = true
      }
    }
  }
  return dependents
}

/** The workspace whose folder holds `file`, if any. */
const workspaceOf = (file: string) => all.find((w) => !relative(w.dir, file).startsWith('..'))

/**
 * What a package's tests import that the package may not use: a package it does not declare
 * (dev ones and the root devDependencies count for tests) or a workspace package that depends
 * on it. Follows relative imports out of the package (to helpers in test/support, say); a path
 * into another workspace counts as importing that workspace.
 */
function testBoundaryBreaches(workspace: Workspace, edges: Map<string, Set<string>>): string[] {
  const dependents = dependentsOf(workspace.name, edges)
  const has = (set: Set<string>, name: string) => set.has(name) || set.has(`@types/${name}`)
  const breaches: string[] = []
  const check = (test: string, file: string, name: string, via: string) => {
    const where = relative(root, test) + (file === test ? '' : ` (through ${relative(root, file)})`)
    if (name === workspace.name) return
    if (dependents.has(name))
      breaches.push(`${where} imports ${via}, a workspace package that depends on ${workspace.name}: a cycle`)
    else if (!has(workspace.shipped, name) && !has(workspace.dev, name) && !has(rootDev, name))
      breaches.push(`${where} imports ${via}, which ${workspace.name} does not declare`)
  }
  for (const test of testFiles(join(workspace.dir, 'src'))) {
    const seen = new Set<string>()
    const queue = [test]
    while (queue.length > 0) {
      const file = queue.pop()!
      if (seen.has(file) || !file.endsWith('.ts')) continue
      seen.add(file)
      for (const specifier of specifiers(file)) {
        if (isBare(specifier)) {
          check(test, file, packageOf(specifier), specifier)
          continue
        }
        const target = resolveRelative(file, specifier)
        if (!target) continue
        const owner = workspaceOf(target)
        if (owner && owner !== workspace) check(test, file, owner.name, relative(root, target))
        else queue.push(target)
      }
    }
  }
  return breaches
}

describe('package boundaries', () => {
  it('every package a workspace imports is one it declares, and what it publishes needs only what it brings', () => {
    const undeclared: string[] = []
    for (const workspace of all) {
      const published = new Set(workspace.published.flatMap((entry) => [...reachedFrom(entry)]))
      const has = (set: Set<string>, name: string) => set.has(name) || set.has(`@types/${name}`)
      for (const file of sourceFiles(join(workspace.dir, 'src'))) {
        for (const specifier of specifiers(file).filter(isBare)) {
          const name = packageOf(specifier)
          if (name === workspace.name || has(workspace.shipped, name)) continue
          const where = relative(root, file)
          if (published.has(file))
            undeclared.push(`${where} (published) imports ${specifier}, not a dependency or peer of ${workspace.name}`)
          else if (byName.has(name))
            undeclared.push(
              `${where} imports the workspace package ${specifier}, which ${workspace.name} does not declare`,
            )
          else if (!has(workspace.dev, name) && !has(rootDev, name))
            undeclared.push(`${where} imports ${specifier}, which neither ${workspace.name} nor the workspace declares`)
        }
      }
    }
    expect(undeclared).toEqual([])
  })

  it('no workspace package imports another round a cycle', () => {
    const edges = dependencyEdges()
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const walk = (name: string, path: string[]) => {
      if (state.get(name) === 'done') return
      if (state.get(name) === 'open') {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' → '))
        return
      }
      state.set(name, 'open')
      for (const next of edges.get(name) ?? []) walk(next, [...path, name])
      state.set(name, 'done')
    }
    for (const name of edges.keys()) walk(name, [])
    expect(cycles).toEqual([])
  })

  it('a package’s tests import only what it declares, the root devDependencies, and no package that depends on it', () => {
    const edges = dependencyEdges()
    expect(all.flatMap((workspace) => testBoundaryBreaches(workspace, edges))).toEqual([])
  })

  it("no entry but a testing one reaches a testing file, in its own package or through another (an example's demo/ apart)", () => {
    const reached: string[] = []
    for (const workspace of all) {
      for (const entry of workspace.entries) {
        const seen = new Set<string>()
        const queue = [entry]
        while (queue.length > 0) {
          const file = queue.pop()!
          if (seen.has(file) || !file.endsWith('.ts')) continue
          seen.add(file)
          for (const specifier of specifiers(file)) {
            if (isBare(specifier)) {
              if (/\/testing(\/|$)/.test(specifier))
                reached.push(`${relative(root, entry)} reaches ${specifier} (from ${relative(root, file)})`)
              continue
            }
            const target = resolveRelative(file, specifier)
            if (!target) continue
            // The offline demo plays the upstreams with the sources' testing players: an example loads
            // its demo/ folder only when asked to (ALLMENNING_DEMO), with a dynamic import.
            if (/(^|\/)demo\//.test(relative(workspace.dir, target)) && workspace.dir.includes('/examples/')) continue
            if (/(^|\/)testing\//.test(relative(workspace.dir, target)))
              reached.push(`${relative(root, entry)} reaches ${relative(root, target)} (from ${relative(root, file)})`)
            else queue.push(target)
          }
        }
      }
    }
    expect(reached).toEqual([])
  })

  it('sees imports, testing files and cycles where there are some (the checks above can fail)', () => {
    const core = byName.get('@allmenning/core')!
    expect(core.entries.map((e) => relative(core.dir, e))).toContain('src/index.ts')
    const sources = byName.get('@allmenning/sources')!
    expect(sources.entries.map((e) => relative(sources.dir, e))).toContain('src/avinor/index.ts')
    expect(sources.published.map((e) => relative(sources.dir, e))).toContain('src/avinor/testing/index.ts')
    expect(
      [...reachedFrom(join(sources.dir, 'src/avinor/testing/index.ts'))].map((f) => relative(sources.dir, f)),
    ).toContain('src/avinor/testing/fake-avinor.ts')
    expect(specifiers(join(core.dir, 'src/testing/index.ts')).length).toBeGreaterThan(0)
    expect(isBare('@allmenning/core/testing') && packageOf('@allmenning/core/testing')).toBe('@allmenning/core')
    expect(isBare('node:fs') || isBare('fs') || isBare('./a.js')).toBe(false)
    expect(dependentsOf('@allmenning/sources', dependencyEdges())).toContain('@allmenning/datasets')
    expect(testFiles(join(sources.dir, 'src')).length).toBeGreaterThan(0)
    expect(workspaceOf(join(sources.dir, 'src/avinor/index.ts'))).toBe(sources)
  })
})

// The root tests use the packages as their users do, through the published entries. A test that
// reaches a file under a package's src/ names it here, with the reason no entry offers it.
const deepImportsAllowed: Record<string, string> = {
  'packages/core/src/compile/compile-parameters.ts': 'the core reading schemas, internal: tested across every source',
  'packages/core/src/compile/json-schema.ts': 'the core reading schemas, internal: tested across every source',
  'packages/core/src/compile/output-fields.ts': 'the core reading schemas, internal: tested across every source',
  'packages/core/src/compile/schema-paths.ts': 'the core reading schemas, internal: tested across every source',
  'packages/datasets/src/testing/s3-server.ts':
    'spawns s3rver (a root devDependency) from an .mjs the build does not ship: not for the testing entry',
  'packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.ts':
    'builds its files with iconv-lite, which @allmenning/sources does not depend on',
  'packages/sources/src/firmafakta/testing/cordis-fixtures.ts':
    'builds its zips with fflate, which @allmenning/sources does not depend on',
  'packages/sources/src/firmafakta/testing/innovasjon-norge-fixtures.ts':
    'builds its file with iconv-lite, which @allmenning/sources does not depend on',
  'packages/sources/src/firmafakta/testing/skattefunn-fixtures.ts':
    'builds its workbooks with fflate, which @allmenning/sources does not depend on',
  'packages/sources/src/firmafakta/testing/xlsx-workbook.ts':
    'builds workbooks with fflate, which @allmenning/sources does not depend on',
  'packages/sources/src/lovdata/testing/archive-builder.ts':
    'builds archives with compressjs, which @allmenning/sources does not depend on',
  'packages/sources/src/lovdata/testing/fake-lovdata.ts':
    'serves archive-builder archives (compressjs, which @allmenning/sources does not depend on)',
  'packages/sources/src/lovdata/testing/fixtures.ts': 'the files of archive-builder archives, used only with it',
  'packages/sources/src/lovdata/testing/published-rule-datasets.ts':
    'internal rule dataset definitions pointed at a fake, for the CLI tests',
  'packages/sources/src/utdanning/datasets/crawl-register.ts': "a dataset's internal helper",
}

/** Every `file:line imports path` where a root test file reaches a package's src/ by a relative path. */
function deepImports(dir: string): string[] {
  const found: string[] = []
  for (const file of sourceFiles(dir, true).concat(sourceFiles(dir, false))) {
    const lines = readFileSync(file, 'utf8').split('\n')
    for (const specifier of specifiers(file)) {
      if (isBare(specifier) || !specifier.startsWith('.')) continue
      const target = relative(root, resolveRelative(file, specifier) ?? resolve(dirname(file), specifier))
      if (!/^packages\/[^/]+\/src\//.test(target)) continue
      const line = lines.findIndex((text) => text.includes(`'${specifier}'`)) + 1
      found.push(`${relative(root, file)}:${line} imports ${target}`)
    }
  }
  return found
}

describe('root tests', () => {
  it("import the packages through their published entries, not through a package's src/ (but for the allow-list)", () => {
    const offending = deepImports(join(root, 'test')).filter((found) => {
      const target = found.split(' imports ')[1]!
      return !(target in deepImportsAllowed)
    })
    expect(offending).toEqual([])
  })

  it('see a deep import where there is one, and every allowed one is still used (the check above can fail)', () => {
    const found = deepImports(join(root, 'test')).map((f) => f.split(' imports ')[1]!)
    expect(found).toContain('packages/core/src/compile/json-schema.ts')
    expect(Object.keys(deepImportsAllowed).filter((target) => !found.includes(target))).toEqual([])
  })
})
