import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import type { CodeExample } from './compile-examples.js'
import { fileImports } from './file-imports.js'
import { jsdocExamples } from './jsdoc-examples.js'
import { markdownCodeBlocks } from './markdown-code-blocks.js'

/** A code example that is not compiled, and why that is safe. */
export interface SkippedExample {
  file: string
  line: number
  /** `quote` (checked word for word against a compiled file) or `not compiled`. */
  kind: 'quote' | 'not compiled'
  /** The quoted file, or the reason given. */
  reason: string
}

/** Every code example of the repository's documentation, sorted into what to compile and what not. */
export interface ExampleInventory {
  compile: CodeExample[]
  skipped: SkippedExample[]
  /** JSON blocks, parsed rather than compiled (those eliding parts with `…` are illustrations). */
  json: { file: string; line: number; code: string }[]
}

const COMPILED_LANGUAGES: Record<string, 'ts' | 'js'> = { ts: 'ts', typescript: 'ts', js: 'js', javascript: 'js' }
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', 'artifacts'])

/** The Markdown files whose code blocks are documentation: the README, docs/ and each example's README. */
export function documentationFiles(root: string): string[] {
  const files = ['README.md', ...walk(root, 'docs', '.md')]
  for (const example of readdirSync(join(root, 'examples'))) {
    if (existsSync(join(root, 'examples', example, 'README.md'))) files.push(`examples/${example}/README.md`)
  }
  return files
}

/** The TypeScript files whose JSDoc examples are documentation: every package's and example's code but tests. */
export function codeFiles(root: string): string[] {
  return [...codeFilesIn(root, 'packages'), ...codeFilesIn(root, 'examples')]
}

function codeFilesIn(root: string, folder: string): string[] {
  return walk(root, folder, '.ts').filter(
    (file) => !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !/(^|\/)tsup\.config\.ts$/.test(file),
  )
}

/**
 * Every code example to check, with the modules each may use unimported: a JSDoc example sees
 * its file's imports, what its file and the other files of its folder export and what the
 * `index.ts` files above it export; every example then sees the workspace packages
 * (their package.json exports) and the placeholder modules `placeholders` names for it.
 *
 * @example
 * const { compile } = collectExamples(root, { markdown: ['test/docs/example-context/everywhere.ts'], code: () => [] })
 */
export function collectExamples(
  root: string,
  placeholders: { markdown: string[]; code: (file: string) => string[] },
): ExampleInventory {
  const packages = workspaceEntries(root)
  const inventory: ExampleInventory = { compile: [], skipped: [], json: [] }

  for (const file of documentationFiles(root)) {
    const fromFile = (path: string) => specifierFrom(file, path)
    for (const block of markdownCodeBlocks(file, readFileSync(join(root, file), 'utf8'))) {
      if (block.language === 'json') inventory.json.push({ file, line: block.line, code: block.code })
      const language = COMPILED_LANGUAGES[block.language]
      if (language === undefined) continue
      if (block.marker) {
        inventory.skipped.push({ file, line: block.line, kind: block.marker.kind, reason: block.marker.value })
        continue
      }
      inventory.compile.push({
        file,
        line: block.line,
        code: block.code,
        columnOffsets: block.columnOffsets,
        language,
        scope: [...packages, ...placeholders.markdown.map(fromFile)],
      })
    }
  }

  for (const file of codeFiles(root)) {
    const source = readFileSync(join(root, file), 'utf8')
    if (!source.includes('@example')) continue
    const own = [
      `./${file.split('/').pop()!.replace(/\.ts$/, '.js')}`,
      ...siblings(root, file),
      ...enclosingIndexes(root, file),
    ]
    const extra = placeholders.code(file).map((path) => specifierFrom(file, path))
    const imports = fileImports(source)
    for (const example of jsdocExamples(file, source)) {
      if (example.notCompiled !== undefined) {
        inventory.skipped.push({ file, line: example.line, kind: 'not compiled', reason: example.notCompiled })
        continue
      }
      inventory.compile.push({
        file,
        line: example.line,
        code: example.code,
        columnOffsets: example.columnOffsets,
        language: 'ts',
        scope: [...own, ...packages, ...extra],
        fileImports: imports,
      })
    }
  }
  return inventory
}

/**
 * The workspace's import names, from each package's exports (where every entry is declared
 * once), but for the sources' subpaths (one source each, its testing kit): the root of
 * @allmenning/sources exports the sources again.
 */
export function workspaceEntries(root: string): string[] {
  const entries: string[] = []
  for (const folder of readdirSync(join(root, 'packages'))) {
    const manifestPath = join(root, 'packages', folder, 'package.json')
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name: string
      exports?: Record<string, unknown>
    }
    for (const key of Object.keys(manifest.exports ?? {})) {
      if (key === './package.json') continue
      const entry = key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`
      if (manifest.name === '@allmenning/sources' && key !== '.') continue
      entries.push(entry)
    }
  }
  return entries
}

/** The other modules of a file's folder, as relative specifiers: an example may use what its neighbours export. */
function siblings(root: string, file: string): string[] {
  const folder = dirname(file)
  return readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.ts') && !/\.(test|d)\.ts$|^index\.ts$|^tsup\.config\.ts$/.test(name))
    .map((name) => `${folder}/${name}`)
    .filter((path) => path !== file)
    .map((path) => specifierFrom(file, path))
}

/** `index.ts` files of the folders above a file, up to its package's root, as relative specifiers. */
function enclosingIndexes(root: string, file: string): string[] {
  const found: string[] = []
  const parts = file.split('/')
  // packages/<name>/src/... or examples/<name>/src/...: stop at the package's folder.
  for (let depth = parts.length - 1; depth >= 2; depth--) {
    const folder = parts.slice(0, depth).join('/')
    const index = `${folder}/index.ts`
    if (index !== file && existsSync(join(root, index))) found.push(specifierFrom(file, index))
  }
  return found
}

function specifierFrom(file: string, target: string): string {
  const path = relative(dirname(file), target).replace(/\.ts$/, '.js')
  return path.startsWith('.') ? path : `./${path}`
}

function walk(root: string, folder: string, extension: string): string[] {
  const found: string[] = []
  const absolute = join(root, folder)
  if (!existsSync(absolute)) return found
  for (const entry of readdirSync(absolute, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith('.')) continue
    const path = `${folder}/${entry.name}`
    if (entry.isDirectory()) found.push(...walk(root, path, extension))
    else if (entry.name.endsWith(extension)) found.push(path)
  }
  return found.sort()
}
