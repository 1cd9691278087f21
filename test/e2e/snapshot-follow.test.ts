import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { createHash, randomBytes } from 'node:crypto'
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createSnapshotClient,
  createSqliteDatasetStore,
  importDataset,
  parseSnapshotUrl,
  publishSnapshot,
  type FollowingDatasetStore,
  type FollowSnapshotOptions,
  type SnapshotManifest,
} from '@allmenning/datasets'
import { aksjonaerregisteret } from '@allmenning/sources/firmafakta'
import { createApp } from '../../examples/express-server/src/app.js'
import { createApp as createKoaApp } from '../../examples/koa-server/src/app.js'
import { startS3Server, type TestS3Server } from '../../packages/datasets/src/testing/s3-server.js'
import {
  aksjonaerregisteret2021Cp1252,
  aksjonaerregisteret2024,
  fixtureCompany,
} from '../../packages/sources/src/firmafakta/testing/aksjonaerregisteret-fixtures.js'

let s3: TestS3Server
let client: S3Client
let dir: string
let prefixes = 0
const stores: FollowingDatasetStore[] = []
const servers: Server[] = []

beforeAll(async () => {
  s3 = await startS3Server()
  client = createSnapshotClient({ endpoint: s3.endpoint, forcePathStyle: true, credentials: s3.credentials, env: {} })
  dir = mkdtempSync(join(tmpdir(), 'allmenning-follow-s3-'))
  writeFileSync(join(dir, 'aksjer-2021.csv'), aksjonaerregisteret2021Cp1252())
  writeFileSync(join(dir, 'aksjer-2024.csv'), aksjonaerregisteret2024())
})

afterAll(async () => {
  for (const store of stores.splice(0)) store.close()
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  await s3.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A place to publish to: its own prefix in the bucket and its own publishing store. */
function publisher() {
  const n = ++prefixes
  const url = `s3://${s3.bucket}/follow-${n}`
  const storePath = join(dir, `publisher-${n}`, 'allmenning.sqlite')
  return {
    url,
    /** Loads a year of Aksjonærregisteret as the publisher would, and publishes the store. */
    async publish(year: 2021 | 2024, to: S3Client = client): Promise<SnapshotManifest> {
      await importDataset({
        path: storePath,
        dataset: aksjonaerregisteret,
        inputs: [{ file: 'aksjonaerregisteret.csv', path: join(dir, `aksjer-${year}.csv`), url: null }],
        publishedAt: `${year}-12-31`,
      })
      const result = await publishSnapshot({ storePath, location: parseSnapshotUrl(url), client: to })
      if (result.status !== 'published') throw new Error(`nothing published: ${result.status}`)
      return result.manifest
    },
  }
}

function follow(options: Omit<FollowSnapshotOptions, 'directory'> & { directory?: string }): FollowingDatasetStore {
  const store = createSqliteDatasetStore({
    follow: {
      client,
      checkEverySeconds: 3600,
      keepPreviousSeconds: 0,
      directory: mkdtempSync(join(dir, 'follower-')),
      ...options,
    },
  })
  stores.push(store)
  return store
}

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

type Answer = { status: number; holders?: number; published?: string; error?: { code: string; message: string } }

async function shareholders(base: string): Promise<Answer> {
  const res = await fetch(`${base}/api/v1/kilder/firmafakta/aksjeeiere_for_selskap?org_nr=${fixtureCompany}`)
  const json = (await res.json()) as {
    data?: { shareholders: unknown[] }
    _meta?: { datasets: Array<{ published_at: string }> }
    error?: Answer['error']
  }
  return {
    status: res.status,
    holders: json.data?.shareholders.length,
    published: json._meta?.datasets?.[0]?.published_at,
    error: json.error,
  }
}

async function until<T>(what: () => Promise<T>, done: (value: T) => boolean, withinMs = 10_000): Promise<T> {
  const deadline = Date.now() + withinMs
  for (;;) {
    const value = await what()
    if (done(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const snapshotFiles = (directory: string) => readdirSync(directory).filter((name) => name !== 'following.json')

describe('a gateway following a snapshot published to S3', () => {
  it('answers a dataset operation from it in the example servers, configured by ALLMENNING_DATASETS_SNAPSHOT (Express and Koa)', async () => {
    const place = publisher()
    await place.publish(2024)
    const env = (name: string) => ({
      ALLMENNING_DATASETS_SNAPSHOT: place.url,
      ALLMENNING_DATASETS_SNAPSHOT_DIR: join(dir, `example-${name}`),
      ALLMENNING_SNAPSHOT_ENDPOINT: s3.endpoint,
      ALLMENNING_SNAPSHOT_PATH_STYLE: 'true',
      // The example's default quota would refuse a client that asks again and again.
      ALLMENNING_RATE_LIMIT: 'off',
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    })
    for (const base of [await listen(createApp(env('express'))), await listen(createKoaApp(env('koa')).callback())]) {
      const answers: Answer[] = []
      const last = await until(
        async () => {
          const answer = await shareholders(base)
          answers.push(answer)
          return answer
        },
        (answer) => answer.status === 200,
      )
      expect(last).toMatchObject({ status: 200, holders: 6, published: '2024-12-31' })
      // Before the snapshot came: the 502 of a store with nothing loaded, saying why.
      for (const early of answers.slice(0, -1)) {
        expect(early.status).toBe(502)
        expect(early.error?.code).toBe('dataset_not_loaded')
        expect(early.error?.message).toContain(`the snapshot ${place.url} is being fetched`)
      }
    }
    expect(snapshotFiles(join(dir, 'example-express'))).toHaveLength(1)
  })

  it('switches to a new publish under steady load without one failed request, answers moving from the old data to the new', async () => {
    const place = publisher()
    await place.publish(2021)
    const store = follow({ url: place.url })
    await store.ready
    // Rate limits off: the steady clients here make thousands of requests from one address.
    const base = await listen(
      createApp({ ALLMENNING_DATA_DIR: join(dir, 'unused'), ALLMENNING_RATE_LIMIT: 'off' }, { datasets: store }),
    )
    let stop = false
    const seen: Answer[][] = []
    const loops = Array.from({ length: 4 }, async (_, i) => {
      const mine: Answer[] = (seen[i] = [])
      while (!stop) mine.push(await shareholders(base))
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    await place.publish(2024)
    expect(await store.check()).toBe(true)
    // Requests go on until every client has had an answer from the new snapshot.
    await until(async () => seen.every((answers) => answers.at(-1)?.published === '2024-12-31'), Boolean)
    stop = true
    await Promise.all(loops)
    const all = seen.flat()
    expect(all.filter((answer) => answer.status !== 200)).toEqual([])
    for (const answers of seen) {
      const published = answers.map((answer) => answer.published)
      // Each client saw the old year, then the new, never back: no answer of the old snapshot after the switch.
      const firstNew = published.indexOf('2024-12-31')
      expect(firstNew).toBeGreaterThan(0)
      expect(published.slice(0, firstNew).every((year) => year === '2021-12-31')).toBe(true)
      expect(published.slice(firstNew).every((year) => year === '2024-12-31')).toBe(true)
      expect(answers[0]!.holders).toBe(2)
      expect(answers.at(-1)!.holders).toBe(6)
    }
  })

  it('keeps serving the old snapshot when the store dies mid-download, reports it, and leaves no partial file', async () => {
    const own = await startS3Server()
    try {
      const ownClient = createSnapshotClient({
        endpoint: own.endpoint,
        forcePathStyle: true,
        credentials: own.credentials,
        env: {},
      })
      const url = `s3://${own.bucket}/killed`
      const storePath = join(dir, 'killed', 'allmenning.sqlite')
      await importDataset({
        path: storePath,
        dataset: aksjonaerregisteret,
        inputs: [{ file: 'aksjonaerregisteret.csv', path: join(dir, 'aksjer-2021.csv'), url: null }],
        publishedAt: '2021-12-31',
      })
      await publishSnapshot({ storePath, location: parseSnapshotUrl(url), client: ownClient })
      const errors: Error[] = []
      const directory = mkdtempSync(join(dir, 'follower-'))
      const store = follow({ url, directory, client: ownClient, onError: (error) => errors.push(error) })
      await store.ready
      const first = store.snapshot() as SnapshotManifest
      // A snapshot big enough that its download is under way when the store is killed. It is
      // never opened (the download cannot finish), so random bytes will do.
      const big = gzipSync(randomBytes(48 << 20), { level: 1 })
      const id = '20991231T000000Z-0b1e55'
      const prefix = parseSnapshotUrl(url).prefix
      const second: SnapshotManifest = {
        ...first,
        id,
        createdAt: new Date().toISOString(),
        object: `snapshots/${id}.sqlite.gz`,
        bytes: big.length,
        sha256: createHash('sha256').update(big).digest('hex'),
        sqliteBytes: 48 << 20,
      }
      await ownClient.send(new PutObjectCommand({ Bucket: own.bucket, Key: `${prefix}/${second.object}`, Body: big }))
      await ownClient.send(
        new PutObjectCommand({ Bucket: own.bucket, Key: `${prefix}/manifest.json`, Body: JSON.stringify(second) }),
      )
      const checking = store.check()
      // Killed once the first bytes are on disk, in the download's temporary file.
      for (;;) {
        const partial = readdirSync(directory).find((name) => name.endsWith('.partial'))
        if (partial && statSync(join(directory, partial), { throwIfNoEntry: false })?.size) break
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
      await own.kill()
      expect(await checking).toBe(false)
      expect(store.snapshot()).toEqual(first)
      expect(errors).toHaveLength(1)
      // Cut off, not refused: the download had not finished when the store died.
      expect(errors[0]!.message).toMatch(
        new RegExp(`^Could not download the snapshot ${id} of ${url}: downloading snapshot ${id} .* failed`),
      )
      expect(snapshotFiles(directory)).toEqual([`${first.id}.sqlite`])
      expect(store.reader(aksjonaerregisteret)!.version.publishedAt).toBe('2021-12-31')
    } finally {
      await own.close()
    }
  }, 60_000)

  it('refuses a snapshot whose bytes do not match its checksum, and keeps serving the old one', async () => {
    const place = publisher()
    const first = await place.publish(2021)
    const errors: Error[] = []
    const store = follow({ url: place.url, onError: (error) => errors.push(error) })
    await store.ready
    const second = await place.publish(2024)
    // One byte changed in the stored object: same size, another sha256.
    const key = `${parseSnapshotUrl(place.url).prefix}/${second.object}`
    const stored = Buffer.from(
      await (await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }))).Body!.transformToByteArray(),
    )
    stored[stored.length >> 1]! ^= 0xff
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: stored }))
    expect(await store.check()).toBe(false)
    expect(errors).toHaveLength(1)
    expect(errors[0]!.message).toMatch(
      /sha256 [0-9a-f]{64}, and its manifest says [0-9a-f]{64}; refused|does not decompress/,
    )
    expect(store.snapshot()!.id).toBe(first.id)
    expect(store.reader(aksjonaerregisteret)!.version.publishedAt).toBe('2021-12-31')
  })

  it('reports credentials the store refuses, naming the bucket, and answers 502 saying so', async () => {
    const place = publisher()
    await place.publish(2024)
    const errors: Error[] = []
    const wrong = createSnapshotClient({
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong' },
      env: {},
    })
    const store = follow({ url: place.url, client: wrong, onError: (error) => errors.push(error) })
    await expect(store.ready).rejects.toThrow(`refused access to bucket "${s3.bucket}"`)
    expect(errors).toHaveLength(1)
    expect(errors[0]!.message).toContain(`Could not read the manifest of the snapshot ${place.url}`)
    expect(errors[0]!.message).toContain('Check the credentials')
    const base = await listen(
      createApp({ ALLMENNING_DATA_DIR: join(dir, 'unused'), ALLMENNING_RATE_LIMIT: 'off' }, { datasets: store }),
    )
    const answer = await shareholders(base)
    expect(answer.status).toBe(502)
    expect(answer.error?.code).toBe('dataset_not_loaded')
    expect(answer.error?.message).toContain(
      `the last attempt failed: Could not read the manifest of the snapshot ${place.url}`,
    )
  })

  it('brings one publish to every instance following the bucket, each on its own timer', async () => {
    const place = publisher()
    await place.publish(2021)
    const instances = [
      follow({ url: place.url, checkEverySeconds: 1 }),
      follow({ url: place.url, checkEverySeconds: 1 }),
    ]
    await Promise.all(instances.map((store) => store.ready))
    const bases = await Promise.all(
      instances.map((store) =>
        listen(
          createApp({ ALLMENNING_DATA_DIR: join(dir, 'unused'), ALLMENNING_RATE_LIMIT: 'off' }, { datasets: store }),
        ),
      ),
    )
    for (const base of bases) expect(await shareholders(base)).toMatchObject({ status: 200, holders: 2 })
    const second = await place.publish(2024)
    for (const base of bases)
      expect(
        await until(
          () => shareholders(base),
          (answer) => answer.holders === 6,
        ),
      ).toMatchObject({ status: 200, holders: 6, published: '2024-12-31' })
    for (const store of instances) expect(store.snapshot()!.id).toBe(second.id)
  })
})
