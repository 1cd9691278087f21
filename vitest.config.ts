import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const root = fileURLToPath(new URL('./', import.meta.url))

/**
 * Each workspace entry (`@allmenning/core/testing`) to the TypeScript source its package.json
 * exports name under the "@allmenning/source" condition: the one place entries are declared,
 * which tsconfig.json's customConditions and the build (tsup.package.ts) read as well. Aliases
 * rather than Vite's resolve conditions, which would also change how Node is told to load
 * third-party packages.
 */
function workspaceAliases() {
  const aliases: { find: RegExp; replacement: string }[] = []
  for (const folder of readdirSync(`${root}packages`)) {
    const manifestPath = `${root}packages/${folder}/package.json`
    if (!existsSync(manifestPath)) continue
    const { name, exports } = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name: string
      exports: Record<string, { '@allmenning/source'?: string }>
    }
    for (const [key, entry] of Object.entries(exports)) {
      const source = entry['@allmenning/source']
      if (!source) continue
      const specifier = key === '.' ? name : `${name}/${key.slice(2)}`
      aliases.push({
        find: new RegExp(`^${specifier.replace(/[/.-]/g, '\\$&')}$`),
        replacement: `${root}packages/${folder}/${source.slice(2)}`,
      })
    }
  }
  return aliases
}

// Tests run against the TypeScript sources, so `npm test` needs no build first.
export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    testTimeout: 15_000,
    setupFiles: ['./test/support/no-internet.ts'],
    // For what runs outside Vite in a test's process: worker threads the dataset import starts
    // from the sources (through tsx), which inherit it.
    execArgv: ['--conditions=@allmenning/source'],
  },
})
