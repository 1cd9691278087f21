import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, root), 'utf8')
const guide = read('docs/writing-an-adapter.md')

describe('docs/writing-an-adapter.md', () => {
  const quotes = [...guide.matchAll(/<!-- quote: (\S+) -->\n```ts\n([\s\S]*?)```/g)].map((m) => ({
    file: m[1]!,
    code: m[2]!,
  }))

  it('quotes the node:http adapter test and the SQLite contract harness as they are', () => {
    expect(quotes.map((q) => q.file)).toEqual([
      'test/conformance/node-http-adapter.test.ts',
      'packages/datasets/src/store/dataset-store-contract.test.ts',
    ])
    for (const { file, code } of quotes) expect(read(file), file).toContain(code)
  })

  it('lists every quirk the suite knows, and every option', () => {
    const quirks = [
      ...read('packages/core/src/testing/conformance/adapter-conformance-context.ts').matchAll(/^ {2}\| '(\w+)'/gm),
    ].map((m) => m[1])
    expect(quirks).toHaveLength(6)
    for (const quirk of quirks) expect(guide).toContain(`| \`${quirk}\` |`)
    const options = read('packages/core/src/testing/conformance/run-adapter-conformance.ts')
    const block = options.slice(
      options.indexOf('export interface AdapterConformanceOptions'),
      options.indexOf('\n}', options.indexOf('export interface AdapterConformanceOptions')),
    )
    const names = [...block.matchAll(/^ {2}(\w+)\?:/gm)].map((m) => m[1])
    expect(names).toEqual(['name', 'publicPrefix', 'hostApp', 'quirks', 'explorer', 'extensions', 'cases'])
    for (const name of names) expect(guide).toContain(`\`${name}`)
  })
})
