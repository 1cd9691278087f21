import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// Tests run against the TypeScript sources, so `npm test` needs no build first.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@allmenning\/core\/testing$/, replacement: src('./packages/core/src/testing/index.ts') },
      { find: /^@allmenning\/core\/(source|adapter|extension)$/, replacement: src('./packages/core/src/$1.ts') },
      { find: /^@allmenning\/sources$/, replacement: src('./packages/sources/src/index.ts') },
      { find: /^@allmenning\/sources\/([a-z_]+)$/, replacement: src('./packages/sources/src/$1/index.ts') },
      { find: /^@allmenning\/sources\/([a-z_]+)\/testing$/, replacement: src('./packages/sources/src/$1/testing/index.ts') },
      { find: /^@allmenning\/datasets$/, replacement: src('./packages/datasets/src/index.ts') },
      { find: /^@allmenning\/datasets\/testing$/, replacement: src('./packages/datasets/src/testing/index.ts') },
      { find: /^@allmenning\/core$/, replacement: src('./packages/core/src/index.ts') },
      { find: /^@allmenning\/adapter-express$/, replacement: src('./packages/adapter-express/src/index.ts') },
      { find: /^@allmenning\/adapter-koa$/, replacement: src('./packages/adapter-koa/src/index.ts') },
      { find: /^@allmenning\/adapter-lambda$/, replacement: src('./packages/adapter-lambda/src/index.ts') },
      { find: /^@allmenning\/adapter-fetch$/, replacement: src('./packages/adapter-fetch/src/index.ts') },
      { find: /^@allmenning\/explorer$/, replacement: src('./packages/explorer/src/index.ts') },
      { find: /^@allmenning\/mcp\/testing$/, replacement: src('./packages/mcp/src/testing/index.ts') },
      { find: /^@allmenning\/mcp$/, replacement: src('./packages/mcp/src/index.ts') },
      { find: /^@allmenning\/observability\/(prometheus|opentelemetry)$/, replacement: src('./packages/observability/src/$1/index.ts') },
      { find: /^@allmenning\/observability$/, replacement: src('./packages/observability/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
    testTimeout: 15_000,
    setupFiles: ['./test/support/no-internet.ts'],
  },
})
