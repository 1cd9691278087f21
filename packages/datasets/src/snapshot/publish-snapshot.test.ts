import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSnapshotClient, createSqliteDatasetStore, importDataset, parseSnapshotUrl, publishSnapshot, readSnapshotManifest, SnapshotError } from '@allmenning/datasets'
import { holdings } from '../testing/test-datasets.js'
import { startS3Server, type TestS3Server } from '../testing/s3-server.js'

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
  dir = mkdtempSync(join(tmpdir(), 'allmenning-publish-'))
  storePath = join(dir, 'allmenning.sqlite')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

let files = 0
async function load(csv: string, publishedAt = '2025-06-30') {
  const path = join(dir, `holdings-${files++}.csv`)
  writeFileSync(path, csv)
  return importDataset({ path: storePath, dataset: holdings, inputs: [{ file: 'holdings.csv', path, url: null }], publishedAt })
}

async function object(key: string): Promise<Buffer> {
  const answer = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))
  return Buffer.from(await answer.Body!.transformToByteArray())
}

async function keys(prefix: string): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))
  return (listed.Contents ?? []).map((o) => o.Key!).sort()
}

/** The rows a store file answers, read the way the gateway reads them. */
async function rowsIn(path: string): Promise<unknown[]> {
  const store = createSqliteDatasetStore({ path, readonly: true })
  try {
    return await store.reader(holdings)!.select('holdings', { columns: ['org', 'owner', 'shares'], orderBy: [{ column: 'org' }, { column: 'owner' }] })
  } finally {
    store.close()
  }
}

async function rowsOf(sqlite: Buffer): Promise<unknown[]> {
  const path = join(dir, `opened-${files++}.sqlite`)
  writeFileSync(path, sqlite)
  return rowsIn(path)
}

describe('publishSnapshot', () => {
  it('uploads a compressed copy of the store and a manifest naming its versions, size and sha256', async () => {
    await load('Org;Owner;Shares\n111;Ann;5\n222;Bob;7\n')
    const location = parseSnapshotUrl(`s3://${s3.bucket}/first`)
    const result = await publishSnapshot({ storePath, location, client })
    expect(result.status).toBe('published')
    const manifest = JSON.parse((await object('first/manifest.json')).toString('utf8'))
    expect(manifest).toEqual(await readSnapshotManifest(location, client))
    const loaded = createSqliteDatasetStore({ path: storePath, readonly: true })
    const entry = loaded.catalog().get('holdings')!
    loaded.close()
    expect(manifest).toMatchObject({
      format: 'allmenning-datasets-snapshot/1',
      object: `snapshots/${manifest.id}.sqlite.gz`,
      datasets: [{ id: 'holdings', version: '2025-06-30', loadedAt: entry.loadedAt, rows: 2 }],
    })
    expect(manifest.id).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{6}$/)
    const stored = await object(`first/${manifest.object}`)
    expect(stored.length).toBe(manifest.bytes)
    expect(createHash('sha256').update(stored).digest('hex')).toBe(manifest.sha256)
    const sqlite = gunzipSync(stored)
    expect(sqlite.length).toBe(manifest.sqliteBytes)
    expect(await rowsOf(sqlite)).toEqual([
      { org: '111', owner: 'Ann', shares: 5 },
      { org: '222', owner: 'Bob', shares: 7 },
    ])
  })
})
