import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import {
  createSnapshotClient,
  createSqliteDatasetStore,
  parseSnapshotUrl,
  readSnapshotManifest,
} from '@allmenning/datasets'
import { firmafakta } from '@allmenning/sources'
import { startFakePublisher, type FakePublisher } from '@allmenning/datasets/testing'
import { startS3Server, type TestS3Server } from '../../packages/datasets/src/testing/s3-server.js'
import {
  aksjonaerregisteret2024,
  fixtureCompany,
} from '../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'
import { tildelingerCsv } from '../../packages/sources/src/firmafakta/testing/innovasjon-norge-fixtures.js'

// publish, pull and sync --publish as a scheduled job and a container's init step run them: a
// separate process, configured by the environment, against a local S3 protocol server.
const cli = join('packages', 'datasets', 'src', 'cli', 'allmenning.ts')
const catalog = join('packages', 'sources', 'src', 'firmafakta', 'testing', 'published-datasets.ts')
const tildelingerPath = '/indatapublic.blob.core.windows.net/tildelingsrapport/Tildelinger.csv'

let dir: string
let s3: TestS3Server
let client: S3Client
let publisher: FakePublisher

/** The process's environment without any AWS settings of the machine running the tests. */
function cleanEnv(): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !name.startsWith('ALLMENNING_')),
  )
}

function run(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@allmenning/source', '--import', 'tsx', cli, 'datasets', ...args],
      {
        env: {
          ...cleanEnv(),
          ALLMENNING_DATA_DIR: join(dir, 'data'),
          ALLMENNING_TEST_PUBLISHER: publisher.url,
          ALLMENNING_SNAPSHOT_ENDPOINT: s3.endpoint,
          ALLMENNING_SNAPSHOT_PATH_STYLE: '1',
          AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
          ...env,
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-snapshot-cli-'))
  s3 = await startS3Server()
  client = createSnapshotClient({ endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials, env: {} })
  publisher = await startFakePublisher()
  writeFileSync(join(dir, 'aksjer-2024.csv'), aksjonaerregisteret2024())
})
afterAll(async () => {
  await publisher.close()
  await s3.close()
  rmSync(dir, { recursive: true, force: true })
})

const noStackTrace = (text: string) => expect(text).not.toMatch(/\n\s+at /)

describe('allmenning datasets publish and pull, run as a user runs them', { timeout: 60_000 }, () => {
  const url = () => `s3://${s3.bucket}/prod`

  it('publishes the store and says what it published', async () => {
    const imported = await run([
      'import',
      'aksjonaerregisteret',
      join(dir, 'aksjer-2024.csv'),
      '--published',
      '2024-12-31',
      '--definitions',
      catalog,
    ])
    expect(imported.code).toBe(0)
    const { code, stdout, stderr } = await run(['publish', url()])
    expect(stderr).toContain(`${url()}: copying the store`)
    expect(code).toBe(0)
    const manifest = await readSnapshotManifest(parseSnapshotUrl(url()), client)
    const [summary, ...datasets] = stdout.trimEnd().split('\n')
    expect(summary).toMatch(
      new RegExp(
        `^published snapshot ${manifest.id} to ${url()}: 1 dataset, \\d+\\.\\d kB compressed from \\d+\\.\\d kB, sha256 ${manifest.sha256}$`,
      ),
    )
    expect(datasets).toEqual([
      `  aksjonaerregisteret: version 2024-12-31, loaded ${manifest.datasets[0]!.loadedAt}, 9 rows`,
    ])
    const again = await run(['publish', url()])
    expect(again).toMatchObject({
      code: 0,
      stdout: `${url()}: snapshot ${manifest.id} already holds the versions the store has; nothing uploaded (--force publishes anyway)\n`,
    })
  })

  it('pulls the snapshot into a fresh container, where the gateway answers from it', async () => {
    const target = join(dir, 'container', 'allmenning.sqlite')
    const { code, stdout } = await run(['pull', url(), '--to', target])
    expect(code).toBe(0)
    const manifest = await readSnapshotManifest(parseSnapshotUrl(url()), client)
    expect(stdout).toContain(
      `pulled snapshot ${manifest.id} (published ${manifest.createdAt}) to ${target}: 1 dataset, `,
    )
    const datasets = createSqliteDatasetStore({ path: target, readonly: true })
    const gateway = createGateway({ sources: [firmafakta()], datasets })
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/kilder/firmafakta/aksjeeiere_for_selskap',
      query: `org_nr=${fixtureCompany}`,
      headers: {},
    })
    datasets.close()
    expect(res.status).toBe(200)
    const body = JSON.parse(res.body!)
    expect(body.data.selskap).toBe('SESAM AS')
    expect(body._meta.datasets).toEqual([
      expect.objectContaining({ id: 'aksjonaerregisteret', published_at: '2024-12-31', rows: 9 }),
    ])
    const again = await run(['pull', url(), '--to', target])
    expect(again).toMatchObject({
      code: 0,
      stdout: `${target} already holds snapshot ${manifest.id}'s versions; nothing downloaded (--force downloads anyway)\n`,
    })
  })

  it('syncs and publishes in one run', async () => {
    publisher.publish(tildelingerPath, {
      body: tildelingerCsv(),
      contentType: 'text/csv',
      lastModified: new Date('2026-11-22T02:00:00Z'),
    })
    const synced = `s3://${s3.bucket}/synced`
    const { code, stdout } = await run([
      'sync',
      'innovasjon_norge_tildelinger',
      '--publish',
      synced,
      '--definitions',
      catalog,
    ])
    expect(code).toBe(0)
    expect(stdout).toMatch(
      /^innovasjon_norge_tildelinger: loaded 5 rows .*\npublished snapshot \S+ to s3:\/\/[^/]+\/synced: 2 datasets, /,
    )
    const manifest = await readSnapshotManifest(parseSnapshotUrl(synced), client)
    expect(manifest.datasets.map((d) => [d.id, d.rows])).toEqual([
      ['aksjonaerregisteret', 9],
      ['innovasjon_norge_tildelinger', 5],
    ])
  })

  it('publishes what the store holds when a dataset fails to sync, and exits 1 saying which failed', async () => {
    publisher.publish(tildelingerPath, { body: tildelingerCsv(), status: 503 })
    const partly = `s3://${s3.bucket}/partly`
    const { code, stdout, stderr } = await run([
      'sync',
      'innovasjon_norge_tildelinger',
      '--force',
      '--publish',
      partly,
      '--definitions',
      catalog,
    ])
    expect(code).toBe(1)
    expect(stderr).toMatch(/error: innovasjon_norge_tildelinger: .*503/)
    expect(stdout).toMatch(/^published snapshot \S+ to s3:\/\/[^/]+\/partly: 2 datasets, /)
    const manifest = await readSnapshotManifest(parseSnapshotUrl(partly), client)
    expect(manifest.datasets.find((d) => d.id === 'innovasjon_norge_tildelinger')?.rows).toBe(5)
  })

  it('refuses a corrupt snapshot with one line naming it, leaving the existing file as it was', async () => {
    const target = join(dir, 'container', 'allmenning.sqlite')
    const before = readFileSync(target)
    const manifest = await readSnapshotManifest(parseSnapshotUrl(`s3://${s3.bucket}/synced`), client)
    const key = `synced/${manifest.object}`
    const stored = Buffer.from(
      await (await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))).Body!.transformToByteArray(),
    )
    stored[Math.floor(stored.length / 2)]! ^= 0x5a
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: stored }))
    const { code, stderr } = await run(['pull', `s3://${s3.bucket}/synced`, '--to', target])
    expect(code).toBe(1)
    expect(stderr).toMatch(
      new RegExp(
        `error: snapshot ${manifest.id} \\(s3://${s3.bucket}/synced/${manifest.object}\\) (has sha256 [0-9a-f]{64}, and its manifest says ${manifest.sha256}|is corrupt: it does not decompress .*); refused\\n$`,
      ),
    )
    noStackTrace(stderr)
    expect(readFileSync(target).equals(before)).toBe(true)
    expect(readdirSync(join(dir, 'container'))).toEqual(['allmenning.sqlite'])
  })

  it('will not pull over a file whose write-ahead log is beside it', async () => {
    const target = join(dir, 'container', 'allmenning.sqlite')
    writeFileSync(`${target}-wal`, 'a log of the file there now')
    const { code, stderr } = await run(['pull', url(), '--to', target, '--force'])
    expect(code).toBe(1)
    expect(stderr).toBe(
      `error: ${target}-wal exists: a process has ${target} open or stopped without closing it. Pull before the gateway starts, or let the gateway follow the snapshot instead; if nothing has the file open, remove ${target}-wal and pull again\n`,
    )
    rmSync(`${target}-wal`)
  })

  it('says clearly when the credentials are refused, nothing is published, or the location is not one', async () => {
    const denied = await run(['publish', url()], { AWS_ACCESS_KEY_ID: 'AKIAWRONGKEY' })
    expect(denied.code).toBe(1)
    expect(denied.stderr).toContain(`the store refused access to bucket "${s3.bucket}" (InvalidAccessKeyId)`)
    noStackTrace(denied.stderr)
    const nothing = await run(['pull', `s3://${s3.bucket}/staging`, '--to', join(dir, 'staging.sqlite')])
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toContain(
      `error: nothing has been published at s3://${s3.bucket}/staging: there is no staging/manifest.json in bucket "${s3.bucket}"`,
    )
    const notUrl = await run(['publish', 'https://example.test/bucket'])
    expect(notUrl.code).toBe(2)
    expect(notUrl.stderr).toContain(
      'error: "https://example.test/bucket" is not a snapshot location: a snapshot location is s3://<bucket>/<prefix>',
    )
    const misplaced = await run(['list', '--publish', url()])
    expect(misplaced.code).toBe(2)
    expect(misplaced.stderr).toContain('error: --publish is an option of sync')
  })
})
