import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSqliteDatasetStore, datasetMirrorVariable, mirroredUrl, runCli, ImportError } from '@allmenning/datasets'
import { startFakePublisher, type FakePublisher } from '../testing/fake-publisher.js'
import { grants, holdings } from '../testing/test-datasets.js'

const catalog = fileURLToPath(new URL('../testing/test-datasets.ts', import.meta.url))
let dir: string
let publisher: FakePublisher
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-mirror-'))
  publisher = await startFakePublisher()
})
afterAll(async () => {
  await publisher.close()
  rmSync(dir, { recursive: true, force: true })
})

async function cli(args: string[], env: Record<string, string>) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const out: string[] = []
  const err: string[] = []
  stdout.on('data', (chunk) => out.push(String(chunk)))
  stderr.on('data', (chunk) => err.push(String(chunk)))
  const code = await runCli([...args, '--data-dir', join(dir, 'data'), '--definitions', catalog], {
    stdout,
    stderr,
    env,
    cwd: dir,
    tty: false,
  })
  return { code, stdout: out.join(''), stderr: err.join('') }
}

describe('dataset mirrors', () => {
  it('name the variable after the dataset id', () => {
    expect(datasetMirrorVariable('innovasjon_norge_tildelinger')).toBe(
      'ALLMENNING_DATASET_INNOVASJON_NORGE_TILDELINGER_URL',
    )
  })

  it('take each file by its declared name from a folder, or one file from its own URL, and refuse what cannot work', () => {
    expect(mirroredUrl('http://mirror.test/data/grants/', grants, grants.files[1]!)).toBe(
      'http://mirror.test/data/grants/grants-2024.csv',
    )
    const single = { ...holdings, files: [{ ...holdings.files[0]!, url: 'https://example.test/h.csv' }] }
    expect(mirroredUrl('http://mirror.test/h-copy.csv', single, single.files[0]!)).toBe('http://mirror.test/h-copy.csv')
    expect(() => mirroredUrl('http://mirror.test/grants.csv', grants, grants.files[0]!)).toThrow(
      new ImportError(
        'The mirror for grants ("http://mirror.test/grants.csv") must be a folder ending in "/": the dataset has 2 files, downloaded from it by name (grants-2023.csv, grants-2024.csv)',
      ),
    )
    expect(() => mirroredUrl('ftp://mirror.test/', grants, grants.files[0]!)).toThrow('is not an http or https URL')
    expect(() => mirroredUrl('mirror/', grants, grants.files[0]!)).toThrow('is not a URL')
  })

  it('are where `sync` downloads from when ALLMENNING_DATASET_<ID>_URL is set, while answers name the publisher', async () => {
    publisher.publish('/mirror/grants/grants-2023.csv', { body: 'Org;Amount\n111;5\n222;6\n', contentType: 'text/csv' })
    publisher.publish('/mirror/grants/grants-2024.csv', { body: 'Org;Amount\n111;7\n', contentType: 'text/csv' })
    const env = { [datasetMirrorVariable('grants')]: `${publisher.url}/mirror/grants/` }

    const list = await cli(['datasets', 'list'], env)
    expect(list.stdout).toContain(`mirror ${publisher.url}/mirror/grants/ (ALLMENNING_DATASET_GRANTS_URL)`)

    const first = await cli(['datasets', 'sync', 'grants'], env)
    expect(first).toMatchObject({ code: 0 })
    expect(first.stdout).toMatch(/^grants: loaded 3 rows from 3 records/)
    expect(publisher.requests.map((r) => r.path)).toEqual([
      '/mirror/grants/grants-2023.csv',
      '/mirror/grants/grants-2024.csv',
    ])
    const store = createSqliteDatasetStore({ path: join(dir, 'data', 'allmenning.sqlite'), readonly: true })
    const reader = store.reader(grants)!
    expect(await reader.select('grants', { where: { org: '111' }, orderBy: [{ column: 'year' }] })).toEqual([
      { org: '111', amount: 5, year: 2023 },
      { org: '111', amount: 7, year: 2024 },
    ])
    expect(reader.version.files.map((f) => f.url)).toEqual([
      'https://example.test/grants/grants-2023.csv',
      'https://example.test/grants/grants-2024.csv',
    ])
    store.close()

    // Asked again with the mirror's validators: nothing changed, nothing downloaded or loaded.
    const second = await cli(['datasets', 'sync', 'grants'], env)
    expect(second).toMatchObject({ code: 0, stdout: 'grants: unchanged; nothing downloaded or loaded\n' })
    expect(publisher.requests.slice(2).map((r) => [r.path, r.status, r.ifNoneMatch !== undefined])).toEqual([
      ['/mirror/grants/grants-2023.csv', 304, true],
      ['/mirror/grants/grants-2024.csv', 304, true],
    ])
  })

  it('fail clearly when set to something that cannot serve the dataset', async () => {
    const bad = await cli(['datasets', 'sync', 'grants'], {
      ALLMENNING_DATASET_GRANTS_URL: `${publisher.url}/one-file.csv`,
    })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('error: grants: The mirror for grants')
    expect(bad.stderr).toContain('must be a folder ending in "/"')
  })
})
