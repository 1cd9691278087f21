import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileURLToPath } from 'node:url'
import { PassThrough } from 'node:stream'
import { createSqliteDatasetStore, importDataset, importInWorker, runCli } from '@allmenning/datasets'
import { holdings } from '../testing/test-datasets.js'
import { acquireImportLock } from './import-lock.js'
import { openSqlite } from './sqlite-connection.js'

let dir: string
let db: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-lock-'))
  db = join(dir, 'allmenning.sqlite')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function rowsFile(name: string, count: number): string {
  const lines = ['Org;Owner;Shares']
  for (let i = 0; i < count; i++) lines.push(`${100 + (i % 900)};Owner ${i};${i}`)
  const path = join(dir, name)
  writeFileSync(path, lines.join('\n'))
  return path
}

function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const definitions = { module: fileURLToPath(new URL('../testing/test-datasets.ts', import.meta.url)) }
const load = (path: string) =>
  importDataset({ path: db, dataset: holdings, inputs: [{ file: 'holdings.csv', path, url: null }], publishedAt: null })

describe('the import lock', () => {
  it('refuses a second import of the same dataset while one runs, and the first completes intact', async () => {
    // The first on a worker thread, as the command line and the gateway run imports.
    let started!: () => void
    const reading = new Promise<void>((resolve) => (started = resolve))
    const first = importInWorker({
      path: db,
      definitions,
      datasetId: 'holdings',
      inputs: [{ file: 'holdings.csv', path: rowsFile('a.csv', 200_000), url: null }],
      publishedAt: null,
      onProgress: () => started(),
    })
    await reading
    await expect(load(rowsFile('b.csv', 10))).rejects.toThrow(
      new RegExp(
        `^holdings is already being imported into this store by process ${process.pid} on .*Wait for that import to finish, then run this one again \\(if no import is running, "allmenning datasets unlock holdings" removes the lock\\)\\. Nothing was changed\\.$`,
      ),
    )
    expect(await first).toMatchObject({ rows: 200_000 })
    const store = createSqliteDatasetStore({ path: db, readonly: true })
    expect(await store.reader(holdings)!.count('holdings')).toBe(200_000)
    // Released once done: the next import runs.
    expect(await load(rowsFile('c.csv', 3))).toMatchObject({ rows: 3 })
    expect(await store.reader(holdings)!.count('holdings')).toBe(3)
    store.close()
  })

  it('is held by another running process, and taken over once that process is gone', async () => {
    await load(rowsFile('a.csv', 5))
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
    await once(other, 'spawn')
    const conn = openSqlite(db)
    acquireImportLock(conn, 'holdings') // creates the table; then hand the lock to the other process
    conn.prepare('UPDATE allmenning_import_locks SET pid = ? WHERE dataset_id = ?').run([other.pid, 'holdings'])
    conn.close()
    await expect(load(rowsFile('b.csv', 7))).rejects.toThrow(
      `holdings is already being imported into this store by process ${other.pid} on ${hostname()}`,
    )
    other.kill()
    await once(other, 'exit')
    expect(await load(rowsFile('b.csv', 7))).toMatchObject({ rows: 7 })
    // The lock row of the finished import is gone.
    const after = openSqlite(db, { readonly: true })
    expect(after.prepare('SELECT count(*) FROM allmenning_import_locks').value()).toBe(0)
    after.close()
  })

  it('can be removed with `allmenning datasets unlock` when its process cannot be recognised as gone', async () => {
    await load(rowsFile('a.csv', 5))
    // As if the holder's process id now belonged to another program: this process, alive.
    const conn = openSqlite(db)
    acquireImportLock(conn, 'holdings')
    conn.close()
    await expect(load(rowsFile('b.csv', 7))).rejects.toThrow(
      '(if no import is running, "allmenning datasets unlock holdings" removes the lock). Nothing was changed.',
    )
    const out: string[] = []
    const stdout = new PassThrough().on('data', (chunk) => out.push(String(chunk)))
    const io = { stdout, stderr: new PassThrough(), env: {}, cwd: dir, tty: false }
    const args = ['--data-dir', dir, '--definitions', definitions.module]
    expect(await runCli(['datasets', 'unlock', 'holdings', ...args], io)).toBe(0)
    expect(out.join('')).toMatch(
      new RegExp(
        `^removed the import lock of holdings, held by process ${process.pid} on .+ since \\d{4}-\\d{2}-\\d{2}T`,
      ),
    )
    expect(await load(rowsFile('b.csv', 7))).toMatchObject({ rows: 7 })
    expect(await runCli(['datasets', 'unlock', 'holdings', ...args], io)).toBe(0)
    expect(out.at(-1)).toBe('holdings has no import lock\n')
  })

  it('does not hold back an import of another dataset', async () => {
    const [first, second] = await Promise.all([
      importInWorker({
        path: db,
        definitions,
        datasetId: 'holdings',
        inputs: [{ file: 'holdings.csv', path: rowsFile('a.csv', 100_000), url: null }],
        publishedAt: null,
      }),
      importInWorker({
        path: db,
        definitions,
        datasetId: 'grants',
        inputs: [{ file: 'grants-2023.csv', path: file('g.csv', 'Org;Amount\n111;5\n'), url: null }],
        publishedAt: null,
      }),
    ])
    expect([first.rows, second.rows]).toEqual([100_000, 1])
  })
})
