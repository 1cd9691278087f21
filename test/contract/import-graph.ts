import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

// The import graph of a package's own modules, read from the source text as the type checker
// would: `import`, `import type`, `export … from` and `import()` all count. A type import is
// erased from the build, but it is still a dependency a reader has to follow, and a circle of
// types is a circle of ideas; an `import()` is still a dependency though it runs later.

/** The `.ts` modules under `dir` (tests and declaration files left out), as absolute paths. */
export function moduleFiles(dir: string): string[] {
  const files: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') files.push(...moduleFiles(path))
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) files.push(path)
  }
  return files
}

/**
 * Every module specifier `file` names: static imports and re-exports (type-only too) and
 * `import('…')`, in code or in a type. TypeScript's own pre-processing scanner finds them,
 * which is many times faster than a full parse over a few hundred files.
 */
export function importSpecifiers(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return importedFiles.map((imported) => imported.fileName)
}

/** The files of the same package `file` imports by relative path (`./x.js` read as `./x.ts`, or `./x/index.ts`). */
export function relativeImports(file: string, known: ReadonlySet<string>): string[] {
  const targets: string[] = []
  for (const specifier of importSpecifiers(file)) {
    if (!specifier.startsWith('.')) continue
    const base = resolve(dirname(file), specifier)
    const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]
    const target = candidates.find((candidate) => known.has(candidate))
    if (target !== undefined) targets.push(target)
  }
  return targets
}

/** The import graph of `files`: each file to the files among them it imports. */
export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files)
  return new Map(files.map((file) => [file, relativeImports(file, known)]))
}

/**
 * Every circle a depth-first walk of `graph` meets, in the graph's own order, each as the nodes
 * round it with the first repeated at the end.
 */
function circlesOf(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const circles: string[][] = []
  const visit = (node: string) => {
    state.set(node, 'open')
    path.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node)
  return circles
}

/** Every circle of imports among `files`, each as the paths round it relative to `base`. */
export function importCycles(files: string[], base: string): string[] {
  return circlesOf(importGraph(files)).map((round) => round.map((p) => relative(base, p)).join(' → '))
}

/**
 * A layer table: its layers lowest first, each a name and the groups (folders of `src`, or a
 * root file's name) it holds. A module may import from its own layer or one below it.
 */
export type LayerTable = ReadonlyArray<{ layer: string; groups: readonly string[] }>

/** The group of a module: its first folder under `src`, or, for a file at the root, its own name. */
export function groupOf(file: string, src: string): string {
  const path = relative(src, file).split(/[\\/]/)
  return path.length > 1 ? path[0]! : path[0]!.replace(/\.ts$/, '')
}

/**
 * Every import of a module of `src` that reaches a higher layer, as `from → to (layer → layer)`,
 * and every group of `src` the table does not place (as `unranked: group`).
 */
export function layerBreaks(src: string, table: LayerTable): string[] {
  const rank = new Map<string, number>()
  table.forEach(({ groups }, index) => {
    for (const group of groups) rank.set(group, index)
  })
  const breaks: string[] = []
  const graph = importGraph(moduleFiles(src))
  const unranked = new Set<string>()
  for (const [file, targets] of graph) {
    const from = groupOf(file, src)
    const fromRank = rank.get(from)
    if (fromRank === undefined) {
      unranked.add(from)
      continue
    }
    for (const target of targets) {
      const toRank = rank.get(groupOf(target, src))
      if (toRank === undefined || toRank <= fromRank) continue
      breaks.push(
        `${relative(src, file)} → ${relative(src, target)} (${table[fromRank]!.layer} → ${table[toRank]!.layer})`,
      )
    }
  }
  return [...[...unranked].map((group) => `unranked: ${group}`), ...breaks]
}

/**
 * Every circle among the groups of one layer of `src` (its folders and its root files alike),
 * as `layer: a → b → a (the first import of each step)`. The rank check lets a group import
 * any group of its own layer; this one keeps those peers in an order that can be read
 * bottom-up all the same. A root file counts as a group of its own: a circle that goes round
 * through one (two folders that meet only in a root file of their layer) is a circle too.
 */
export function layerCircles(src: string, table: LayerTable): string[] {
  const layerOf = new Map<string, string>()
  for (const { layer, groups } of table) for (const group of groups) layerOf.set(group, layer)
  // Group to group of the same layer, each step with the first import that makes it.
  const steps = new Map<string, Map<string, string>>()
  for (const [file, targets] of importGraph(moduleFiles(src))) {
    const from = groupOf(file, src)
    for (const target of targets) {
      const to = groupOf(target, src)
      if (to === from || layerOf.get(to) === undefined) continue
      if (layerOf.get(to) !== layerOf.get(from)) continue
      const next = steps.get(from) ?? new Map<string, string>()
      if (!next.has(to)) next.set(to, `${relative(src, file)} → ${relative(src, target)}`)
      steps.set(from, next)
    }
  }
  // Walked in the groups' alphabetical order, so the circles are named the same way every run.
  const groups = new Map([...steps.keys()].sort().map((group) => [group, [...steps.get(group)!.keys()].sort()]))
  return circlesOf(groups).map((round) => {
    const imports = round.slice(1).map((to, i) => steps.get(round[i]!)!.get(to)!)
    return `${layerOf.get(round[0]!)}: ${round.join(' → ')} (${imports.join(', ')})`
  })
}
