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
      expect({ name, runner: /from ['"](vitest|jest|@jest\/globals|node:test|mocha)['"]/.test(text) }).toEqual({
        name,
        runner: false,
      })
      expect({ name, globals: /^\s*(expect|describe|it|test|beforeAll|afterAll)\(/m.test(text) }).toEqual({
        name,
        globals: false,
      })
    }
  })

  // The conformance suites are handed the runner's functions by their caller, so they may call
  // `expect(…)`; what they must not do is import a runner (the type-check rules out globals).
  it('the conformance suites import no test runner', () => {
    const folder = new URL('./conformance/', import.meta.url)
    const files = readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    expect(files).toContain('run-adapter-conformance.ts')
    for (const name of files) {
      const text = readFileSync(new URL(name, folder), 'utf8')
      // At the start of a line: the JSDoc examples show a caller importing vitest, which is fine.
      expect({
        name,
        runner: /^(import|export)\b[^\n]*from ['"](vitest|jest|@jest\/globals|node:test|mocha)['"]/m.test(text),
      }).toEqual({ name, runner: false })
    }
  })
})
