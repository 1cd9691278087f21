import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

// Plugin authors run the kit under vitest, jest, node:test or a script: it may use none of them.
describe('@allmenning/core/testing', () => {
  it('imports no test runner and uses no runner globals', () => {
    const folder = new URL('./', import.meta.url)
    const files = readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    expect(files).toContain('check-source.ts')
    for (const name of files) {
      const text = readFileSync(new URL(name, folder), 'utf8')
      expect({ name, runner: /from ['"](vitest|jest|@jest\/globals|node:test|mocha)['"]/.test(text) }).toEqual({ name, runner: false })
      expect({ name, globals: /^\s*(expect|describe|it|test|beforeAll|afterAll)\(/m.test(text) }).toEqual({ name, globals: false })
    }
  })
})
