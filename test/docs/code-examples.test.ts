import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { codeContext, markdownContext } from './example-context/contexts.js'
import { readerDataNames } from './example-context/reader-data.js'
import { collectExamples } from './support/collect-examples.js'
import {
  compileExamples,
  type CodeExample,
  type CompileResult,
  type ExampleFailure,
} from './support/compile-examples.js'

/*
 * Every TypeScript and JavaScript example of the README, docs/, the examples' READMEs and the
 * JSDoc `@example`s of packages/ and examples/ (tests aside) is compiled against the
 * workspace's sources, so an example that calls a renamed or removed API, imports from a
 * path that does not exist or passes what an API no longer takes fails here, naming the file,
 * line and the compiler's message.
 *
 * How an example reads: it may use without importing them what its surroundings give it.
 * - A JSDoc example: what its file imports, what its file and the other files of its folder
 *   export, and what the `index.ts` files above it export.
 * - Every example: what the workspace packages export (their package.json exports), and the
 *   typed placeholders of test/docs/example-context/ (`gateway`, `sources`, `ctx`, `client`,
 *   `app`, `event`, `v` for valibot, ...), chosen by the package (`ctx` is Koa's in Koa's adapter).
 * - The names of test/docs/example-context/reader-data.ts (`row`, `body`, `db`), only as data.
 * Anything else must be declared or imported by the example itself.
 *
 * A block that cannot compile (a fragment of an object, shell) says why: in Markdown an
 * HTML comment on the line before the fence, `<!-- not compiled: why -->`; in JSDoc a first
 * line `// not compiled: why`. A Markdown block marked `<!-- quote: path -->` is an excerpt of
 * that file, which test/docs/writing-a-source.test.ts checks word for word and tsc compiles.
 * JSON blocks are parsed, except those eliding parts with `…`; shell blocks are not checked.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const inventory = collectExamples(root, { markdown: markdownContext, code: codeContext })
const dataNames = new Set(readerDataNames)

/** Examples that must fail, compiled with the others: the check is worth only what it catches. */
const mustFail: { example: CodeExample; expected: RegExp }[] = [
  {
    // An upstream called by its id where the API takes its handle.
    example: jsdocProbe(
      'packages/sources/src/lovdata/hoyesterett-client.ts',
      "const entries = await readDecisionSitemap(ctx.upstream('domstol'))",
    ),
    expected:
      /hoyesterett-client\.ts:900001:\d+ .*'string' is not assignable to parameter of type 'UpstreamDefinition'/,
  },
  {
    // An import from a subpath that does not exist.
    example: markdownProbe(
      "import { avinor } from '@allmenning/core/no-such-subpath'\nconst gateway = createGateway({ sources: [avinor()] })",
    ),
    expected: /README\.md:900001:\d+ Cannot find module '@allmenning\/core\/no-such-subpath'/,
  },
  {
    // A renamed function.
    example: markdownProbe('const gateway = createGatewayNamedOtherwise({ sources })'),
    expected: /README\.md:900001:\d+ Cannot find name 'createGatewayNamedOtherwise'/,
  },
  {
    // A name of the reader's data called as a function must be declared.
    example: jsdocProbe('packages/datasets/src/store/row-check.ts', "row('aksjeposter')"),
    expected: /row-check\.ts:900001:\d+ Cannot find name 'row'/,
  },
  {
    // An option the API does not take.
    example: markdownProbe("createGateway({ sources, publicBaseURL: 'https://data.example.no' })"),
    expected: /README\.md:900001:\d+ .*'publicBaseURL' does not exist in type 'GatewayOptions'/,
  },
  {
    // A JavaScript block is checked too.
    example: {
      ...markdownProbe("import { createGateway } from '@allmenning/core'\ncreateGateway({ sources: 'statnett' })"),
      language: 'js',
    },
    expected: /README\.md:900002:\d+ .*'string' is not assignable to type 'SourceDefinition\[\]'/,
  },
]

let result: CompileResult
let durationMs = 0

beforeAll(() => {
  const started = performance.now()
  result = compileExamples(root, [...inventory.compile, ...mustFail.map((probe) => probe.example)], dataNames)
  durationMs = performance.now() - started
}, 180_000)

describe('code examples', () => {
  it(`compiles every example (${inventory.compile.length}: ${countBy(inventory.compile)})`, () => {
    const probes = new Set(mustFail.map((probe) => probe.example))
    const failures = result.failures.filter((failure) => !probes.has(failure.example)).map(describeFailure)
    expect(failures, `${failures.length} errors in code examples (compiled in ${Math.round(durationMs)} ms)`).toEqual(
      [],
    )
  })

  it.each(mustFail.map((probe, i) => [i, probe] as const))('fails on a broken example (%i)', (_i, probe) => {
    const failures = result.failures.filter((failure) => failure.example === probe.example).map(describeFailure)
    expect(
      failures.some((text) => probe.expected.test(text)),
      failures.join('\n'),
    ).toBe(true)
  })

  it('lists in reader-data.ts only names some example uses as data', () => {
    const unused = readerDataNames.filter((name) => !result.dataNamesUsed.has(name))
    expect(unused, 'no example uses these names of reader-data.ts any more: remove them').toEqual([])
  })

  it('says why a block is not compiled, and quotes only files tsc compiles', () => {
    for (const skipped of inventory.skipped) {
      const where = `${skipped.file}:${skipped.line}`
      if (skipped.kind === 'not compiled')
        expect(skipped.reason.length, `${where} says "not compiled" without a reason`).toBeGreaterThan(10)
      else {
        expect(existsSync(`${root}/${skipped.reason}`), `${where} quotes ${skipped.reason}, which does not exist`).toBe(
          true,
        )
        expect(skipped.reason, `${where} quotes a file tsconfig.json does not compile`).toMatch(
          /^((packages|examples)\/[^/]+\/src|test)\/.+\.ts$/,
        )
      }
    }
  })

  it('parses every JSON block that elides nothing', () => {
    const broken = inventory.json
      .filter((block) => !/…|\.\.\./.test(block.code))
      .flatMap((block) => {
        try {
          JSON.parse(block.code)
          return []
        } catch (error) {
          return [`${block.file}:${block.line} ${(error as Error).message}`]
        }
      })
    expect(broken).toEqual([])
  })
})

function describeFailure(failure: ExampleFailure): string {
  const hint = [2304, 2552, 18004].includes(failure.code)
    ? "\n    (import or declare it in the example; a name for the reader's own data, used only as data, may go in test/docs/example-context/reader-data.ts)"
    : ''
  return `${failure.at} ${failure.message}${failure.source ? `\n    ${failure.source}` : ''}${hint}`
}

function countBy(examples: CodeExample[]): string {
  const markdown = examples.filter((example) => example.file.endsWith('.md')).length
  return `${markdown} in Markdown, ${examples.length - markdown} in JSDoc`
}

function jsdocProbe(file: string, code: string): CodeExample {
  const own = `./${file.split('/').pop()!.replace(/\.ts$/, '.js')}`
  return {
    file,
    line: 900_001,
    code,
    language: 'ts',
    scope: [own, ...codeContext(file).map((path) => relativeTo(file, path))],
  }
}

function markdownProbe(code: string): CodeExample {
  return {
    file: 'README.md',
    line: 900_001,
    code,
    language: 'ts',
    scope: ['@allmenning/core', ...markdownContext.map((path) => `./${path.replace(/\.ts$/, '.js')}`)],
  }
}

function relativeTo(file: string, path: string): string {
  const up = file.split('/').length - 1
  return `${'../'.repeat(up)}${path.replace(/\.ts$/, '.js')}`
}
