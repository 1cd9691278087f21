import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createSnapshotClient,
  createSqliteDatasetStore,
  importDataset,
  importInWorker,
  parseSnapshotUrl,
  publishSnapshot,
  readSnapshotManifest,
  SnapshotError,
  type PublishProgress,
} from '@allmenning/datasets'
import { openSqlite } from '../store/sqlite-connection.js'
import { generationTable } from '../store/table-names.js'
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
  return importDataset({
    path: storePath,
    dataset: holdings,
    inputs: [{ file: 'holdings.csv', path, url: null }],
    publishedAt,
  })
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
    return await store
      .reader(holdings)!
      .select('holdings', { columns: ['org', 'owner', 'shares'], orderBy: [{ column: 'org' }, { column: 'owner' }] })
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
    const entry = loaded.loadedDatasets().get('holdings')!
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

/** Every command the client sends, as `Command key`, in order. */
function recordCommands(target: S3Client): string[] {
  const sent: string[] = []
  target.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(
        `${(context.commandName ?? '').replace(/Command$/, '')} ${(args.input as { Key?: string }).Key ?? ''}`.trim(),
      )
      return next(args)
    },
    { step: 'initialize', name: 'recordCommands' },
  )
  return sent
}

describe('publishSnapshot, again and again', () => {
  it('replaces the manifest only once the new object is stored, and keeps the current and the previous snapshot', async () => {
    const location = parseSnapshotUrl(`s3://${s3.bucket}/again`)
    const recording = createSnapshotClient({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: s3.credentials,
      env: {},
    })
    const sent = recordCommands(recording)
    const published = []
    for (const owner of ['Ann', 'Bob', 'Cid']) {
      await load(`Org;Owner;Shares\n111;${owner};5\n`)
      const result = await publishSnapshot({ storePath, location, client: recording })
      if (result.status !== 'published') throw new Error('expected a publish')
      published.push(result)
    }
    const [first, second, third] = published.map((r) => r.manifest)
    expect(published[1]!.previous).toEqual(first)
    expect(await keys('again/')).toEqual(
      ['again/manifest.json', `again/${second!.object}`, `again/${third!.object}`].sort(),
    )
    expect(published[2]!.deleted).toEqual([`again/${first!.object}`])
    expect(await readSnapshotManifest(location, client)).toEqual(third)

    // The third publish: the object is written and checked before the manifest is replaced, and only then is the oldest deleted.
    const third3 = sent.slice(sent.lastIndexOf('GetObject again/manifest.json'))
    expect(third3).toEqual([
      'GetObject again/manifest.json',
      `PutObject again/${third!.object}`,
      `HeadObject again/${third!.object}`,
      'PutObject again/manifest.json',
      'ListObjectsV2',
      `DeleteObject again/${first!.object}`,
    ])
  })

  it('uploads nothing when the manifest already names the versions the store holds, unless forced', async () => {
    const location = parseSnapshotUrl(`s3://${s3.bucket}/unchanged`)
    await load('Org;Owner;Shares\n111;Ann;5\n')
    const first = await publishSnapshot({ storePath, location, client })
    const again = await publishSnapshot({ storePath, location, client })
    expect(again).toEqual({ status: 'unchanged', manifest: first.manifest })
    const forced = await publishSnapshot({ storePath, location, client, force: true })
    expect(forced.status).toBe('published')
    expect(forced.manifest.id).not.toBe(first.manifest.id)
  })

  it('uploads a large snapshot in parts, reporting the bytes uploaded', async () => {
    const location = parseSnapshotUrl(`s3://${s3.bucket}/large`)
    await load('Org;Owner;Shares\n111;Ann;5\n')
    // 12 MiB that does not compress: more than one 8 MiB part.
    const db = openSqlite(storePath)
    db.exec(
      'CREATE TABLE filler (data BLOB); INSERT INTO filler SELECT randomblob(1048576) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) a, (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) b',
    )
    db.close()
    const recording = createSnapshotClient({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: s3.credentials,
      env: {},
    })
    const sent = recordCommands(recording)
    const progress: PublishProgress[] = []
    const result = await publishSnapshot({
      storePath,
      location,
      client: recording,
      onProgress: (p) => progress.push(p),
    })
    expect(result.manifest.bytes).toBeGreaterThan(12 * 1024 * 1024)
    expect(sent.filter((c) => c.startsWith('UploadPart ')).length).toBe(2)
    expect(sent).toContain(`CompleteMultipartUpload large/${result.manifest.object}`)
    const uploads = progress.flatMap((p) => (p.phase === 'uploading' ? [p.uploadedBytes] : []))
    expect(uploads.at(-1)).toBe(result.manifest.bytes)
    expect(progress[0]).toEqual({ phase: 'copying' })
    const stored = await object(`large/${result.manifest.object}`)
    expect(createHash('sha256').update(stored).digest('hex')).toBe(result.manifest.sha256)
  })
})

describe('publishSnapshot while an import runs', () => {
  it('publishes the generation committed when it began, whole and consistent', async () => {
    await load('Org;Owner;Shares\n111;Ann;5\n222;Bob;7\n')
    const lines = ['Org;Owner;Shares']
    for (let i = 0; i < 150_000; i++) lines.push(`${100 + (i % 900)};Owner ${i};${i}`)
    const big = join(dir, 'big.csv')
    writeFileSync(big, lines.join('\n'))
    let started!: () => void
    const reading = new Promise<void>((resolve) => (started = resolve))
    const importing = importInWorker({
      path: storePath,
      definitions: { module: fileURLToPath(new URL('../testing/test-datasets.ts', import.meta.url)) },
      datasetId: 'holdings',
      inputs: [{ file: 'holdings.csv', path: big, url: null }],
      publishedAt: '2025-12-31',
      onProgress: (p) => {
        if (p.rows > 10_000) started()
      },
    })
    await reading
    const location = parseSnapshotUrl(`s3://${s3.bucket}/during-import`)
    const result = await publishSnapshot({ storePath, location, client })
    const imported = await importing
    expect(imported.rows).toBe(150_000)

    const path = join(dir, 'published.sqlite')
    writeFileSync(path, gunzipSync(await object(`during-import/${result.manifest.object}`)))
    const db = openSqlite(path, { readonly: true })
    try {
      expect(db.prepare('PRAGMA integrity_check').value()).toBe('ok')
      const entry = db
        .prepare('SELECT generation, rows, published_at FROM allmenning_datasets WHERE id = ?')
        .get(['holdings'])!
      const counted = db
        .prepare(`SELECT count(*) FROM "${generationTable('holdings', 'holdings', entry.generation as number)}"`)
        .value()
      // Whichever generation the catalog names is there whole: the old one, as the import had not switched yet.
      expect({ rows: entry.rows, counted, version: entry.published_at }).toEqual({
        rows: 2,
        counted: 2,
        version: '2025-06-30',
      })
      expect(result.manifest.datasets).toEqual([
        expect.objectContaining({ id: 'holdings', rows: 2, version: '2025-06-30' }),
      ])
    } finally {
      db.close()
    }
  }, 60_000)
})

describe('publishSnapshot failing', () => {
  it('stops mid-upload when aborted: the manifest, the bucket and the store folder stay as they were', async () => {
    const location = parseSnapshotUrl(`s3://${s3.bucket}/aborted`)
    await load('Org;Owner;Shares\n111;Ann;5\n')
    const first = await publishSnapshot({ storePath, location, client })
    await load('Org;Owner;Shares\n111;Bob;5\n')
    const db = openSqlite(storePath)
    db.exec(
      'CREATE TABLE filler (data BLOB); INSERT INTO filler SELECT randomblob(1048576) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) a, (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) b',
    )
    db.close()
    const controller = new AbortController()
    const stopped = publishSnapshot({
      storePath,
      location,
      client,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'uploading' && p.readBytes > 0) controller.abort(new Error('interrupted (SIGINT)'))
      },
    })
    await expect(stopped).rejects.toThrow('interrupted (SIGINT)')
    expect(await readSnapshotManifest(location, client)).toEqual(first.manifest)
    expect(await keys('aborted/')).toEqual(['aborted/manifest.json', `aborted/${first.manifest.object}`])
    expect(readdirSync(dir).filter((name) => name.includes('publish'))).toEqual([])
  })

  it('names the bucket when the credentials are refused, and uploads nothing', async () => {
    await load('Org;Owner;Shares\n111;Ann;5\n')
    const wrong = createSnapshotClient({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAWRONG', secretAccessKey: 'nope' },
      env: {},
    })
    const failure = publishSnapshot({
      storePath,
      location: parseSnapshotUrl(`s3://${s3.bucket}/denied`),
      client: wrong,
    })
    await expect(failure).rejects.toThrow(SnapshotError)
    await expect(failure).rejects.toMatchObject({
      code: 'access-denied',
      message: expect.stringContaining(`bucket "${s3.bucket}"`),
    })
    expect(await keys('denied/')).toEqual([])
  })

  it('refuses a store with nothing loaded, and a missing store', async () => {
    const location = parseSnapshotUrl(`s3://${s3.bucket}/empty`)
    await expect(publishSnapshot({ storePath, location, client })).rejects.toThrow(
      `there is no store at ${storePath} to publish`,
    )
    createSqliteDatasetStore({ path: storePath }).loadedDatasets()
    await expect(publishSnapshot({ storePath, location, client })).rejects.toThrow('has no dataset loaded')
  })

  it('leaves the manifest alone when it is of a format this version does not read, unless forced', async () => {
    await load('Org;Owner;Shares\n111;Ann;5\n')
    await client.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: 'future/manifest.json',
        Body: JSON.stringify({ format: 'allmenning-datasets-snapshot/9' }),
      }),
    )
    const location = parseSnapshotUrl(`s3://${s3.bucket}/future`)
    await expect(publishSnapshot({ storePath, location, client })).rejects.toMatchObject({
      code: 'bad-manifest',
      message: expect.stringContaining('--force'),
    })
    expect((await publishSnapshot({ storePath, location, client, force: true })).status).toBe('published')
  })
})
