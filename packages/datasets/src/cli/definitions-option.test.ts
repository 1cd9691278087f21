import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '@allmenning/datasets'

// `--definitions` names the module the command line reads dataset definitions from; `--catalog`,
// its earlier name, is still read, and the two naming different modules is a usage error.
const testDatasets = fileURLToPath(new URL('../testing/test-datasets.ts', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'allmenning-definitions-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function cli(...args: string[]) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const out: string[] = []
  const err: string[] = []
  stdout.on('data', (chunk) => out.push(String(chunk)))
  stderr.on('data', (chunk) => err.push(String(chunk)))
  const code = await runCli(['datasets', 'list', '--data-dir', join(dir, 'data'), ...args], {
    stdout,
    stderr,
    env: {},
    cwd: dir,
    tty: false,
  })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

describe('the datasets command line: --definitions', () => {
  it('lists the datasets of the module it names, and of the same module by its earlier name --catalog', async () => {
    const named = await cli('--definitions', testDatasets)
    expect(named.code).toBe(0)
    expect(named.stdout).toContain('grants')
    expect(named.stdout).toContain('holdings')
    const earlier = await cli('--catalog', testDatasets)
    expect(earlier).toEqual(named)
  })

  it('refuses the two names given different modules, naming both', async () => {
    const both = await cli('--definitions', testDatasets, '--catalog', './elsewhere.ts')
    expect(both.code).toBe(2)
    expect(both.stderr).toContain(
      `--definitions and --catalog (its earlier name) name different modules (${testDatasets}, ./elsewhere.ts): give one`,
    )
  })
})
