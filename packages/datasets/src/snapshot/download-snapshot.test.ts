import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createSnapshotClient,
  createSqliteDatasetStore,
  downloadSnapshot,
  importDataset,
  parseSnapshotUrl,
  publishSnapshot,
  readSnapshotManifest,
  SnapshotError,
  type SnapshotManifest,
} from '@allmenning/datasets'
import { readLoadedDatasets } from '../store/loaded-datasets-table.js'
import { openSqlite } from '../store/sqlite-connection.js'
import { holdings } from '../testing/test-datasets.js'
import { startS3Server, type TestS3Server } from '../testing/s3-server.js'
import { copyStore } from './store-copy.js'

let s3: TestS3Server
let client: S3Client
let dir: string
let storePath: string
beforeAll(async () => {
  s3 = await startS3Server()
  client = createSnapshotClient({ endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials, env: {} })
})
afterAll(() => s3.close())
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-download-'))
  storePath = join(dir, 'store', 'allmenning.sqlite')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function publishHoldings(prefix: string, csv = 'Org;Owner;Shares\n111;Ann;5\n222;Bob;7\n333;Cid;1\n') {
  const path = join(dir, `${prefix}.csv`)
  writeFileSync(path, csv)
  await importDataset({
    path: storePath,
    dataset: holdings,
    inputs: [{ file: 'holdings.csv', path, url: null }],
    publishedAt: '2025-06-30',
  })
  const location = parseSnapshotUrl(`s3://${s3.bucket}/${prefix}`)
  const result = await publishSnapshot({ storePath, location, client })
  return { location, manifest: result.manifest }
}

/** What a store file holds, read as the gateway reads it: each dataset's catalog entry and rows. */
async function contentOf(path: string) {
  const db = openSqlite(path, { readonly: true })
  const catalog = [...readLoadedDatasets(db).values()]
  db.close()
  const store = createSqliteDatasetStore({ path, readonly: true })
  const rows = await store.reader(holdings)!.select('holdings', { orderBy: [{ column: 'org' }, { column: 'owner' }] })
  store.close()
  return { catalog, rows }
}

/** The files in the target's folder: a download leaves only the target there. */
const filesIn = (folder: string) => readdirSync(folder).sort()

describe('downloadSnapshot', () => {
  it('downloads the published snapshot: the same datasets and rows as a fresh copy of the store', async () => {
    const { location, manifest } = await publishHoldings('pulled')
    const target = join(dir, 'served', 'allmenning.sqlite')
    const progress: number[] = []
    const downloaded = await downloadSnapshot(location, manifest, target, {
      client,
      onProgress: (received, total) => progress.push(received, total),
    })
    expect(downloaded).toEqual({ path: target, manifest, bytes: manifest.bytes })
    expect(progress.slice(-2)).toEqual([manifest.bytes, manifest.bytes])
    expect(readFileSync(target).length).toBe(manifest.sqliteBytes)
    const fresh = copyStore(storePath, join(dir, 'fresh.sqlite'))
    expect(await contentOf(target)).toEqual(await contentOf(fresh.path))
    expect((await contentOf(target)).rows).toHaveLength(3)
    expect(filesIn(join(dir, 'served'))).toEqual(['allmenning.sqlite'])
  })

  it('refuses a snapshot whose bytes were changed in the bucket, naming it, and leaves the existing file alone', async () => {
    const { location, manifest } = await publishHoldings('corrupt')
    const key = `corrupt/${manifest.object}`
    const stored = Buffer.from(
      await (await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))).Body!.transformToByteArray(),
    )
    // Flip bits in the deflate data's middle and at its end (the gzip trailer's CRC): same size, different bytes.
    stored[Math.floor(stored.length / 2)]! ^= 0xff
    stored[stored.length - 6]! ^= 0x01
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: stored }))
    const target = join(dir, 'served', 'allmenning.sqlite')
    await downloadSnapshot(location, manifest, target, { client }).catch(() => undefined)
    writeFileSync(target, 'the file being served')
    const failure = downloadSnapshot(location, manifest, target, { client })
    await expect(failure).rejects.toThrow(SnapshotError)
    await expect(failure).rejects.toMatchObject({
      code: 'corrupt',
      message: expect.stringContaining(`snapshot ${manifest.id}`),
    })
    expect(readFileSync(target, 'utf8')).toBe('the file being served')
    expect(filesIn(join(dir, 'served'))).toEqual(['allmenning.sqlite'])
  })

  it('refuses bytes that decompress but do not match the sha256', async () => {
    const { location, manifest } = await publishHoldings('checksum')
    const forged: SnapshotManifest = { ...manifest, sha256: '0'.repeat(64) }
    const target = join(dir, 'served.sqlite')
    await expect(downloadSnapshot(location, forged, target, { client })).rejects.toMatchObject({
      code: 'corrupt',
      message: expect.stringMatching(
        new RegExp(`snapshot ${manifest.id} .* has sha256 ${manifest.sha256}, and its manifest says 0{64}; refused`),
      ),
    })
    expect(filesIn(dir)).not.toContain('served.sqlite')
    expect(filesIn(dir).filter((name) => name.endsWith('.partial'))).toEqual([])
  })

  it('says when the snapshot a manifest names is gone', async () => {
    const { location, manifest } = await publishHoldings('gone')
    const missing = {
      ...manifest,
      id: '20200101T000000Z-000000',
      object: 'snapshots/20200101T000000Z-000000.sqlite.gz',
    }
    await expect(downloadSnapshot(location, missing, join(dir, 'x.sqlite'), { client })).rejects.toMatchObject({
      code: 'missing-object',
    })
  })
})

describe('readSnapshotManifest', () => {
  it('says nothing has been published at a location without a manifest', async () => {
    const location = parseSnapshotUrl(`s3://${s3.bucket}/nothing-here`)
    await expect(readSnapshotManifest(location, client)).rejects.toMatchObject({
      code: 'not-published',
      message: `nothing has been published at s3://${s3.bucket}/nothing-here: there is no nothing-here/manifest.json in bucket "${s3.bucket}" (publish with: npx allmenning datasets publish s3://${s3.bucket}/nothing-here)`,
    })
  })

  it('names the bucket when the credentials are refused', async () => {
    const location = parseSnapshotUrl(`s3://${s3.bucket}/pulled`)
    const wrong = createSnapshotClient({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'x' },
      env: {},
    })
    await expect(readSnapshotManifest(location, wrong)).rejects.toMatchObject({
      code: 'access-denied',
      message: expect.stringContaining(`the store refused access to bucket "${s3.bucket}" (InvalidAccessKeyId)`),
    })
  })

  it('says which bucket does not exist', async () => {
    await expect(readSnapshotManifest(parseSnapshotUrl('s3://no-such-bucket/x'), client)).rejects.toMatchObject({
      code: 'no-bucket',
      message: expect.stringContaining('"no-such-bucket"'),
    })
  })
})

describe('downloadSnapshot from a store that dies mid-download', () => {
  it('fails cleanly: no partial file, and the existing file untouched', async () => {
    const dying = await startS3Server({ bucket: 'dying' })
    try {
      const dyingClient = createSnapshotClient({
        endpoint: dying.endpoint,
        forcePathStyle: true,
        credentials: dying.credentials,
        env: {},
      })
      // 24 MiB that does not compress: more than the loopback buffers hold, so the kill lands mid-body.
      const body = gzipSync(randomBytes(24 * 1024 * 1024), { level: 1 })
      const id = '20261125T000000Z-abcdef'
      await dyingClient.send(new PutObjectCommand({ Bucket: 'dying', Key: `p/snapshots/${id}.sqlite.gz`, Body: body }))
      const manifest: SnapshotManifest = {
        format: 'allmenning-datasets-snapshot/1',
        id,
        createdAt: '2026-11-25T00:00:00.000Z',
        object: `snapshots/${id}.sqlite.gz`,
        bytes: body.length,
        sha256: 'a'.repeat(64),
        sqliteBytes: 24 * 1024 * 1024,
        datasets: [],
      }
      const target = join(dir, 'served.sqlite')
      writeFileSync(target, 'the file being served')
      let killed: Promise<void> | undefined
      const failure = downloadSnapshot(parseSnapshotUrl('s3://dying/p'), manifest, target, {
        client: dyingClient,
        onProgress: () => {
          killed ??= dying.kill()
        },
      })
      await expect(failure).rejects.toMatchObject({
        code: 'store-failed',
        message: expect.stringContaining(`downloading snapshot ${id}`),
      })
      await killed
      expect(readFileSync(target, 'utf8')).toBe('the file being served')
      expect(filesIn(dir)).toEqual(['served.sqlite'])
    } finally {
      await dying.close()
    }
  }, 30_000)
})
