import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import { createSqliteDatasetStore } from '@allmenning/datasets'
import { firmafakta } from '@allmenning/sources'
import { startFakePublisher, type FakePublisher } from '@allmenning/datasets/testing'
import {
  aksjonaerregisteret2024,
  notAnExtract,
} from '../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'
import { tildelingerCsv } from '../../packages/sources/src/firmafakta/testing/innovasjon-norge-fixtures.js'
import {
  skattefunnHistorical,
  skattefunnPage,
  skattefunnRolling,
} from '../../packages/sources/src/firmafakta/testing/skattefunn-fixtures.js'

// The command line as a user runs it: a separate process, its output and exit code. From the
// TypeScript sources (tsx), with a catalog whose download addresses point at a local publisher.
const cli = join('packages', 'datasets', 'src', 'cli', 'allmenning.ts')
const catalog = join('packages', 'sources', 'src', 'firmafakta', 'testing', 'published-datasets.ts')
const tildelingerPath = '/indatapublic.blob.core.windows.net/tildelingsrapport/Tildelinger.csv'

let dir: string
let publisher: FakePublisher

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@allmenning/source', '--import', 'tsx', cli, ...args],
      {
        env: { ...process.env, ALLMENNING_DATA_DIR: join(dir, 'data'), ALLMENNING_TEST_PUBLISHER: publisher.url },
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}
const datasets = (...args: string[]) => run('datasets', ...args, '--definitions', catalog)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-cli-'))
  publisher = await startFakePublisher()
  writeFileSync(join(dir, 'aksjer-2024.csv'), aksjonaerregisteret2024())
  writeFileSync(join(dir, 'expired-link.html'), notAnExtract())
})
afterAll(async () => {
  await publisher.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('allmenning datasets, run as a user runs it', () => {
  it('lists every dataset before anything is loaded, with where it comes from', async () => {
    const { code, stdout } = await datasets('list')
    expect(code).toBe(0)
    const lines = stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^DATASET\s+LOADED\s+ROWS\s+VERSION\s+ORIGIN$/)
    expect(lines.find((l) => l.startsWith('aksjonaerregisteret '))).toMatch(
      /\sno\s+-\s+-\s+ordered from the publisher: npx allmenning datasets import aksjonaerregisteret <file>$/,
    )
    expect(lines.find((l) => l.startsWith('innovasjon_norge_tildelinger '))).toContain(
      `${publisher.url}${tildelingerPath}`,
    )
  })

  it('imports an extract ordered by e-mail, reports what it skipped, and lists it as loaded', async () => {
    const { code, stdout, stderr } = await datasets(
      'import',
      'aksjonaerregisteret',
      join(dir, 'aksjer-2024.csv'),
      '--published',
      '2024-12-31',
    )
    expect(code).toBe(0)
    expect(stdout).toMatch(
      /^aksjonaerregisteret: loaded 9 rows from 11 records in \d+\.\d s; 1 malformed records skipped; version 2024-12-31\n/,
    )
    expect(stdout).toContain('  skipped record 10 of aksjonaerregisteret.csv: Orgnr "97603078" is not 9 digits')
    // Not a terminal: plain progress lines, no bar and no carriage returns.
    expect(stderr).not.toContain('\r')
    expect(stderr).toContain('aksjonaerregisteret: switching to the new version (10 rows read, 1 malformed)')
    const list = await datasets('list')
    expect(list.stdout.split('\n').find((l) => l.startsWith('aksjonaerregisteret '))).toMatch(
      /\syes\s+9\s+2024-12-31\s/,
    )
  })

  it('refuses a file that is not an extract with a clear message and a non-zero exit, keeping what was loaded', async () => {
    const { code, stderr } = await datasets('import', 'aksjonaerregisteret', join(dir, 'expired-link.html'))
    expect(code).toBe(1)
    expect(stderr).toMatch(
      /error: aksjonaerregisteret\.csv has no "Orgnr", "Selskap", .* columns, so it is not an Aksjonærregisteret extract .* Nothing was changed\./,
    )
    const list = await datasets('list')
    expect(list.stdout).toMatch(/aksjonaerregisteret\s+yes\s+9\s+2024-12-31/)
  })

  it('stops an import at a read limit with one line naming the limit and the file, keeping what was loaded', async () => {
    const long = join(dir, 'long-line.csv')
    writeFileSync(
      long,
      `${aksjonaerregisteret2024().toString('utf8').split('\n')[0]}\n976030787;${'A'.repeat(100_000)};Ordinære aksjer;NORDMANN OLA;1970;0150 OSLO;NO;1;10\n`,
    )
    const { code, stderr } = await datasets('import', 'aksjonaerregisteret', long, '--max-record-length', '64Ki')
    expect(code).toBe(1)
    const errors = stderr.split('\n').filter((line) => line.startsWith('error:'))
    expect(errors).toEqual([
      'error: The import of aksjonaerregisteret stopped: line 2 of aksjonaerregisteret.csv is longer than 64 Ki characters (the longest record read; raise it with --max-record-length). Nothing was changed.',
    ])
    expect(stderr).not.toMatch(/\n\s+at /)
    const list = await datasets('list')
    expect(list.stdout).toMatch(/aksjonaerregisteret\s+yes\s+9\s+2024-12-31/)
    const bad = await datasets('import', 'aksjonaerregisteret', long, '--max-ratio', 'lots')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      'error: --max-ratio must be a positive number, with K, M, G, Ki, Mi or Gi if it is a size (got "lots")',
    )
  })

  it('syncs a published file, then asks again with its ETag and loads nothing when it is unchanged', async () => {
    publisher.publish(tildelingerPath, {
      body: tildelingerCsv(),
      contentType: 'text/csv',
      lastModified: new Date('2026-11-22T02:00:00Z'),
    })
    const first = await datasets('sync', 'innovasjon_norge_tildelinger')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(
      /^innovasjon_norge_tildelinger: loaded 5 rows from 6 records in \d+\.\d s; 1 malformed records skipped; version 2026-11-22T02:00:00\.000Z\n$/,
    )
    const second = await datasets('sync', 'innovasjon_norge_tildelinger')
    expect(second.code).toBe(0)
    expect(second.stdout).toBe('innovasjon_norge_tildelinger: unchanged; nothing downloaded or loaded\n')
    const [firstRequest, secondRequest] = publisher.requests.filter((r) => r.path === tildelingerPath)
    expect(firstRequest).toMatchObject({ status: 200, ifNoneMatch: undefined })
    expect(secondRequest).toMatchObject({ status: 304, ifModifiedSince: 'Sun, 22 Nov 2026 02:00:00 GMT' })
    expect(secondRequest?.ifNoneMatch).toMatch(/^"0x[0-9A-F]{16}"$/)
    expect(secondRequest?.userAgent).toMatch(/^allmenning-datasets\//)
    const status = await datasets('status')
    expect(status.stdout).toContain(`file Tildelinger.csv: ${publisher.url}${tildelingerPath}`)
    expect(status.stdout).toContain(`ETag ${secondRequest?.ifNoneMatch}`)
  })

  it('keeps the loaded version when a download breaks off, and says how far it got', async () => {
    const changed = Buffer.concat([
      tildelingerCsv(),
      Buffer.from(
        'Oslo;Oslo;923609016;EQUINOR ASA;Tilskudd;Forskning;10,00;01.01.2025;Oslo;Energi;Olje;Tilskudd\r\n',
        'latin1',
      ),
    ])
    publisher.publish(tildelingerPath, {
      body: changed,
      contentType: 'text/csv',
      lastModified: new Date('2026-11-23T02:00:00Z'),
      breakAfter: 200,
    })
    const broken = await datasets('sync', 'innovasjon_norge_tildelinger')
    expect(broken.code).toBe(1)
    // 200 bytes arrived before the connection ended (0 when the machine is too busy to take them in first).
    expect(broken.stderr).toMatch(
      new RegExp(
        `error: innovasjon_norge_tildelinger: The download of ${publisher.url}${tildelingerPath} broke off after (200|0) bytes of ${changed.length}`,
      ),
    )
    const list = await datasets('list')
    expect(list.stdout).toMatch(/innovasjon_norge_tildelinger\s+yes\s+5\s+2026-11-22/)
    // Once the publisher serves it whole, the new version is loaded.
    publisher.publish(tildelingerPath, {
      body: changed,
      contentType: 'text/csv',
      lastModified: new Date('2026-11-23T02:00:00Z'),
    })
    const mended = await datasets('sync', 'innovasjon_norge_tildelinger')
    expect(mended.code).toBe(0)
    expect(mended.stdout).toContain('loaded 6 rows from 7 records')
    // What the gateway reads from the same file.
    const store = createSqliteDatasetStore({ path: join(dir, 'data', 'allmenning.sqlite'), readonly: true })
    const gateway = createGateway({ sources: [firmafakta()], datasets: store })
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/kilder/firmafakta/tildelinger_for_selskap',
      query: 'org_nr=923609016',
      headers: {},
    })
    expect(JSON.parse(res.body!).data.tildelinger).toEqual([
      expect.objectContaining({ bedriftsnavn: 'EQUINOR ASA', belop: 10 }),
    ])
    store.close()
  })

  it('stops when a scheduler sends SIGTERM mid-download, says so, and keeps the loaded version', async () => {
    // A mirror that sends a large file slowly; the command is stopped once it is downloading.
    let downloading!: () => void
    const started = new Promise<void>((resolve) => (downloading = resolve))
    const slow = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(10_000_000) })
      response.write(tildelingerCsv())
      const timer = setInterval(() => response.write(Buffer.alloc(1000, 0x20)), 50)
      response.on('close', () => clearInterval(timer))
      setTimeout(downloading, 200)
    })
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    try {
      const mirror = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/Tildelinger.csv`
      const child = execFile(
        process.execPath,
        [
          '--conditions=@allmenning/source',
          '--import',
          'tsx',
          cli,
          'datasets',
          'sync',
          'innovasjon_norge_tildelinger',
          '--definitions',
          catalog,
        ],
        {
          env: {
            ...process.env,
            ALLMENNING_DATA_DIR: join(dir, 'data'),
            ALLMENNING_TEST_PUBLISHER: publisher.url,
            ALLMENNING_DATASET_INNOVASJON_NORGE_TILDELINGER_URL: mirror,
          },
          timeout: 60_000,
        },
      )
      let stderr = ''
      child.stderr!.on('data', (chunk) => (stderr += String(chunk)))
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
      await started
      child.kill('SIGTERM')
      expect(await exited).toBe(1)
      expect(stderr).toMatch(
        new RegExp(
          `error: innovasjon_norge_tildelinger: The download of ${mirror} broke off after \\d+ bytes of 10000000: interrupted \\(SIGTERM\\)`,
        ),
      )
      expect(
        readdirSync(join(dir, 'data', 'downloads', 'innovasjon_norge_tildelinger')).filter((name) =>
          name.endsWith('.part'),
        ),
      ).toEqual([])
      const list = await datasets('list')
      expect(list.stdout).toMatch(/innovasjon_norge_tildelinger\s+yes\s+6\s+/)
    } finally {
      slow.closeAllConnections()
      slow.close()
    }
  })

  it("finds files whose names change on the publisher's page, and loads them in order", async () => {
    const site = '/www.forskningsradet.no'
    publisher.publish(`${site}/skattefunn/suksesshistorier/`, {
      body: skattefunnPage(`${publisher.url}${site}`),
      contentType: 'text/html; charset=utf-8',
    })
    publisher.publish(`${site}/siteassets/skattefunn/tall/skattefunn-innsendte-soknader-2002-2024.xlsx`, {
      body: Buffer.from(skattefunnHistorical()),
    })
    publisher.publish(`${site}/siteassets/skattefunn/tall/skattefunn-innsendte-soknader-per-januar-2026.xlsx`, {
      body: Buffer.from(skattefunnRolling()),
      noEtag: true,
    })
    const { code, stdout, stderr } = await datasets('sync', 'skattefunn')
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^skattefunn: loaded 4 rows from 5 records/)
    // The historical workbook first, the rolling one last, whatever the page's order.
    const files = publisher.requests.filter((r) => r.path.endsWith('.xlsx')).map((r) => r.path.split('/').pop())
    expect(files).toEqual([
      'skattefunn-innsendte-soknader-2002-2024.xlsx',
      'skattefunn-innsendte-soknader-per-januar-2026.xlsx',
    ])
    const again = await datasets('sync', 'skattefunn')
    expect(again.stdout).toBe('skattefunn: unchanged; nothing downloaded or loaded\n')
    // Without an ETag, Last-Modified alone makes the request conditional.
    expect(publisher.requests.at(-1)).toMatchObject({
      status: 304,
      ifNoneMatch: undefined,
      ifModifiedSince: 'Sun, 22 Nov 2026 02:00:00 GMT',
    })
  })

  it('stops a sync at a read limit with one line naming it, keeping the loaded version', async () => {
    const before = (await datasets('list')).stdout
      .split('\n')
      .find((l) => l.startsWith('innovasjon_norge_tildelinger '))
    expect(before).toMatch(/\syes\s/)
    const { code, stderr } = await datasets(
      'sync',
      'innovasjon_norge_tildelinger',
      '--force',
      '--max-record-length',
      '20',
    )
    expect(code).toBe(1)
    expect(stderr.split('\n').filter((line) => line.startsWith('error:'))).toEqual([
      expect.stringMatching(
        /^error: innovasjon_norge_tildelinger: The import of innovasjon_norge_tildelinger stopped: line 1 of Tildelinger\.csv is longer than 20 characters \(the longest record read; raise it with --max-record-length\)\. Nothing was changed\.$/,
      ),
    ])
    const after = (await datasets('list')).stdout.split('\n').find((l) => l.startsWith('innovasjon_norge_tildelinger '))
    expect(after).toBe(before)
  })

  it('fails clearly on a dataset that cannot be synced and on commands it does not know', async () => {
    const ordered = await datasets('sync', 'aksjonaerregisteret')
    expect(ordered.code).toBe(1)
    expect(ordered.stderr).toContain('error: aksjonaerregisteret is not published for download. Order the extract')
    const unknown = await datasets('import', 'nope', 'x.csv')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(
      /^error: no dataset "nope"; the datasets are aksjonaerregisteret, innovasjon_norge_tildelinger/,
    )
    const wrongDate = await datasets(
      'import',
      'aksjonaerregisteret',
      join(dir, 'aksjer-2024.csv'),
      '--published',
      '31.12.2024',
    )
    expect(wrongDate.code).toBe(2)
    expect(wrongDate.stderr).toContain('--published must be a date as YYYY-MM-DD (got "31.12.2024")')
    const missing = await datasets('import', 'aksjonaerregisteret', join(dir, 'none.csv'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('none.csv: no such file')
    const help = await run('--help')
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Usage: allmenning datasets <command>')
  })
})
