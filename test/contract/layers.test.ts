import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCycles, layerBreaks, layerCircles, moduleFiles, type LayerTable } from './import-graph.js'

// Three rules on how the packages' modules import each other, type imports counted:
//
// - No circle of files in any package. A circle of value imports may evaluate in a lucky order
//   under the test runner and in another in the bundler's chunks, where a constant is then read
//   before it is set (the built package fails on import). A circle of types builds, but it is two
//   ideas that cannot be read one without the other: one of them belongs in a file of its own.
// - The folders of `core` and `datasets` are layers. A module imports from its own folder, from a
//   folder of its layer or from one below, never from above; so each layer can be read, tested
//   and changed knowing only those below it. The tables below are that order, lowest first;
//   docs/developing.md (Layout) lists the same order.
// - The folders of one layer make no circle either: a folder may import a peer of its layer, but
//   nothing that peer imports leads back to it. So the peers too can be read in an order, lowest
//   first (the groups below are listed in one; the comment on core's features says which). A
//   root file is a group of its own here: folders that meet only in a root file of their layer
//   go round through it, and that is a circle too.

const root = resolve(import.meta.dirname, '../..')

/** `packages/core/src`: a folder, or for a file at the root its name without `.ts`. */
const coreLayers: LayerTable = [
  // Helpers that know nothing of the gateway.
  { layer: 'util', groups: ['util'] },
  { layer: 'text', groups: ['text'] },
  // The HTTP contract's primitives: request and response types, errors (GatewayError,
  // UpstreamError), problem answers, ETags, JSON answers, links, query strings, mount paths.
  { layer: 'http primitives', groups: ['http'] },
  // What a source is written against (defineSource, defineOperation, defineUpstream, defineDataset,
  // place fields) and the dataset store's contract an operation reads through.
  { layer: 'plugin API', groups: ['plugin'] },
  { layer: 'dataset access', groups: ['dataset'] },
  { layer: 'compile', groups: ['compile'] },
  // The observers' events and each source's health as the gateway saw it.
  { layer: 'observe', groups: ['observe'] },
  { layer: 'upstream client', groups: ['upstream'] },
  { layer: 'cache storage', groups: ['cache'] },
  { layer: 'rate limits', groups: ['limit'] },
  // A route's record and its parameters' checks, and the router that finds one by path.
  { layer: 'routing', groups: ['routing'] },
  // One operation call: the cached answer, envelope, paging, provenance, meta.
  { layer: 'pipeline', groups: ['pipeline'] },
  // The features and their routes. They are peers, each declaring in its own folder the slice of
  // the gateway's context (and of its options) its routes are made from. They make no circle; in
  // the order they can be read: describe (descriptors, OpenAPI, API index), then operations,
  // which describe with it, search (which calls operations), feedback and health, then places
  // (which searches) and extensions (which lend the operations' routes).
  { layer: 'features', groups: ['describe', 'operations', 'search', 'feedback', 'health', 'places', 'extensions'] },
  // The features composed: gateway-options.ts gathers their options into the one type a host
  // gives, gateway-context.ts their slices of the context into the one createGateway builds.
  { layer: 'features composed', groups: ['gateway-options', 'gateway-context'] },
  // The front door: the route table and the request handler every adapter calls.
  { layer: 'front door', groups: ['server', 'routes'] },
  { layer: 'gateway', groups: ['gateway', 'gateway-options-from-env', 'server-settings-from-env'] },
  // The entries by audience (@allmenning/core, /source, /adapter, /extension, /testing).
  { layer: 'entries', groups: ['index', 'source', 'adapter', 'extension', 'testing'] },
]

/** `packages/datasets/src`, the same way. */
const datasetsLayers: LayerTable = [
  // Reading publishers' files: parts, zip members, delimited text, JSON arrays, spreadsheets, limits.
  { layer: 'read', groups: ['read'] },
  // The SQLite store: connections, generations, queries, the dataset register, import locks.
  { layer: 'store', groups: ['store'] },
  { layer: 'import', groups: ['import'] },
  { layer: 'sync', groups: ['sync'] },
  { layer: 'snapshot', groups: ['snapshot'] },
  // A store that follows a published snapshot.
  { layer: 'follow', groups: ['follow'] },
  { layer: 'cli', groups: ['cli'] },
  { layer: 'entries', groups: ['index', 'testing'] },
]

describe('module imports', () => {
  it('run round no circle of files in any package, type imports counted', () => {
    const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name, 'src'))
    expect(importCycles(packages.flatMap(moduleFiles), root)).toEqual([])
  }, 60_000)

  it('go down the layers of packages/core/src, never up', () => {
    expect(layerBreaks(join(root, 'packages/core/src'), coreLayers)).toEqual([])
  })

  it('go down the layers of packages/datasets/src, never up', () => {
    expect(layerBreaks(join(root, 'packages/datasets/src'), datasetsLayers)).toEqual([])
  })

  it('make no circle among the groups of one layer, root files included, in packages/core/src and packages/datasets/src', () => {
    expect(layerCircles(join(root, 'packages/core/src'), coreLayers)).toEqual([])
    expect(layerCircles(join(root, 'packages/datasets/src'), datasetsLayers)).toEqual([])
  })

  it('see circles of value imports, type imports, re-exports and import() (the checks above can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'allmenning-cycles-'))
    try {
      const write = (name: string, text: string) => {
        mkdirSync(dirname(join(dir, name)), { recursive: true })
        writeFileSync(join(dir, name), text)
      }
      write('a.ts', "import { b } from './b.js'\nexport const a = 'a' + b\n")
      write('b.ts', "export { a } from './a.js'\nexport const b = 'b'\n")
      write('c.ts', "import type { D } from './d.js'\nexport type C = D[]\n")
      write('d.ts', "import { type C } from './c.js'\nexport type D = C | string\n")
      write('e.ts', "export const load = () => import('./f.js')\n")
      write('f.ts', "export type F = import('./e.js').E\n")
      write('g.ts', "import { h } from './h.js'\nexport const g = h\n")
      write('h.ts', 'export const h = 1\n')
      expect(importCycles(moduleFiles(dir), dir)).toEqual([
        'a.ts → b.ts → a.ts',
        'c.ts → d.ts → c.ts',
        'e.ts → f.ts → e.ts',
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('name an import that goes up a layer, and a folder the table leaves out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'allmenning-layers-'))
    try {
      const write = (name: string, text: string) => {
        mkdirSync(dirname(join(dir, name)), { recursive: true })
        writeFileSync(join(dir, name), text)
      }
      write('low/a.ts', "import type { B } from '../high/b.js'\nexport type A = B\n")
      write('high/b.ts', "import { c } from '../low/c.js'\nexport type B = typeof c\n")
      write('low/c.ts', 'export const c = 1\n')
      write('index.ts', "export type { A } from './low/a.js'\n")
      write('stray/d.ts', "import { c } from '../low/c.js'\nexport const d = c\n")
      const table: LayerTable = [
        { layer: 'bottom', groups: ['low'] },
        { layer: 'top', groups: ['high', 'index'] },
      ]
      expect(layerBreaks(dir, table)).toEqual(['unranked: stray', 'low/a.ts → high/b.ts (bottom → top)'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('name a circle among the groups of a layer, a root file among them, though no file is in one and no import goes up', () => {
    const dir = mkdtempSync(join(tmpdir(), 'allmenning-peers-'))
    try {
      const write = (name: string, text: string) => {
        mkdirSync(dirname(join(dir, name)), { recursive: true })
        writeFileSync(join(dir, name), text)
      }
      write('base/a.ts', 'export const a = 1\n')
      // p and q are peers importing each other's files: a circle of folders, none of files.
      write('p/b.ts', "import { c } from '../q/c.js'\nexport const b = c\n")
      write('q/c.ts', "import { a } from '../base/a.js'\nexport const c = a\n")
      write('q/d.ts', "import { e } from '../p/e.js'\nexport const d = e\n")
      write('p/e.ts', 'export const e = 2\n')
      // s imports r, and r goes round to s only through a root file of their layer: a circle all
      // the same (as core's features made through gateway-context.ts and gateway-options.ts,
      // when those sat among them).
      write('r/f.ts', "import type { Frame } from '../frame.js'\nexport type F = Frame\n")
      write('frame.ts', "import type { G } from './s/g.js'\nexport type Frame = G[]\n")
      write('s/g.ts', "import type { H } from '../r/h.js'\nexport type G = H\n")
      write('r/h.ts', 'export type H = string\n')
      const table: LayerTable = [
        { layer: 'bottom', groups: ['base'] },
        { layer: 'peers', groups: ['p', 'q', 'r', 's', 'frame'] },
      ]
      expect(layerBreaks(dir, table)).toEqual([])
      expect(importCycles(moduleFiles(dir), dir)).toEqual([])
      expect(layerCircles(dir, table)).toEqual([
        'peers: frame → s → r → frame (frame.ts → s/g.ts, s/g.ts → r/h.ts, r/f.ts → frame.ts)',
        'peers: p → q → p (p/b.ts → q/c.ts, q/d.ts → p/e.ts)',
      ])
      // With the root file a layer above its folders, the walk up is a break, and the circle is gone.
      const stacked: LayerTable = [
        { layer: 'bottom', groups: ['base'] },
        { layer: 'peers', groups: ['p', 'q', 'r', 's'] },
        { layer: 'frame', groups: ['frame'] },
      ]
      expect(layerBreaks(dir, stacked)).toEqual(['r/f.ts → frame.ts (peers → frame)'])
      expect(layerCircles(dir, stacked)).toEqual(['peers: p → q → p (p/b.ts → q/c.ts, q/d.ts → p/e.ts)'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
