import { execFile } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const repository = fileURLToPath(new URL('../../../', import.meta.url))
const packageDir = fileURLToPath(new URL('../', import.meta.url))
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  exports: Record<string, { import: { types: string; default: string }; require: { types: string; default: string } }>
}

// The core's own build (its tsup config), written beside the repository's node_modules so that
// the built files find their dependencies there, and loaded as a user loads the package: by
// its name, through the `exports` map, from ESM and from CommonJS.
let installed: string
let scratch: string

beforeAll(async () => {
  mkdirSync(join(repository, 'node_modules/.cache'), { recursive: true })
  scratch = mkdtempSync(join(repository, 'node_modules/.cache/core-entries-'))
  installed = join(scratch, 'node_modules/@allmenning/core')
  mkdirSync(installed, { recursive: true })
  copyFileSync(join(packageDir, 'package.json'), join(installed, 'package.json'))
  await run(join(repository, 'node_modules/.bin/tsup'), ['--out-dir', join(installed, 'dist'), '--silent'], {
    cwd: packageDir,
  })
}, 300_000)

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true })
})

/** Runs a script in the scratch folder, where `@allmenning/core` is the fresh build. */
async function node(file: string, script: string): Promise<string> {
  const path = join(scratch, file)
  await import('node:fs/promises').then((fs) => fs.writeFile(path, script))
  const { stdout } = await run(process.execPath, [path], { cwd: scratch })
  return stdout
}

describe("the core's build", () => {
  const subpaths = Object.keys(manifest.exports)

  it('declares an entry for every audience', () => {
    expect(subpaths).toEqual(['.', './source', './adapter', './extension', './testing', './conformance'])
  })

  it.each(subpaths)('writes %s as ESM and CommonJS with their declarations', (subpath) => {
    const { import: esm, require: cjs } = manifest.exports[subpath]!
    for (const file of [esm.default, esm.types, cjs.default, cjs.types])
      expect(existsSync(join(installed, file)), file).toBe(true)
  })

  it.each(subpaths)('loads %s by name with import and with require, the same names both ways', async (subpath) => {
    const specifier = subpath === '.' ? '@allmenning/core' : `@allmenning/core/${subpath.slice(2)}`
    const fromImport = JSON.parse(
      await node('import.mjs', `console.log(JSON.stringify(Object.keys(await import('${specifier}')).sort()))`),
    ) as string[]
    const fromRequire = JSON.parse(
      await node('require.cjs', `console.log(JSON.stringify(Object.keys(require('${specifier}')).sort()))`),
    ) as string[]
    expect(fromImport.length).toBeGreaterThan(0)
    expect(fromRequire).toEqual(fromImport)
  })

  it('shares one copy of the core between entries: an UpstreamError from /source is a 502 of the root gateway', async () => {
    // Were /source a copy of its own (a CommonJS entry bundling its own classes), the gateway
    // would not know the error it throws as an upstream failure and would answer 500.
    const script = (load: (specifier: string) => string) => `
      const { createGateway } = ${load('@allmenning/core')}
      const { defineOperation, defineSource, defineUpstream, UpstreamError } = ${load('@allmenning/core/source')}
      const v = ${load('valibot')}
      const upstream = defineUpstream({ id: 'stub', name: 'Stub service', baseUrl: 'http://127.0.0.1:9', publisher: 'Nobody' })
      const fail = defineOperation({
        name: 'fail', description: 'Fails.', parameters: {}, output: v.array(v.unknown()),
        async run() { throw new UpstreamError(upstream, 'unavailable', 'it is down') },
      })
      const source = defineSource({
        id: 'stub', name: 'Stub', description: 'Fails.', documentation: 'https://example.no', topic: 'test',
        keywords: ['test'], contentLanguages: ['en'], cacheTtlSeconds: 60, upstreams: [upstream], operations: [fail],
      })
      const gateway = createGateway({ sources: [source] })
      const answer = await gateway.handle({ method: 'GET', path: '/api/v1/kilder/stub/fail', query: '', headers: {} })
      console.log(JSON.stringify({ status: answer.status, code: JSON.parse(answer.body).error.code }))`
    const esm = await node(
      'shared.mjs',
      script((specifier) => `await import('${specifier}')`),
    )
    const cjs = await node('shared.cjs', `(async () => {${script((specifier) => `require('${specifier}')`)}\n})()`)
    expect(JSON.parse(esm)).toEqual({ status: 502, code: 'upstream_unavailable' })
    expect(JSON.parse(cjs)).toEqual(JSON.parse(esm))
  })
})
