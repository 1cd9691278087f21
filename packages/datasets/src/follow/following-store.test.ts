import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSqliteDatasetStore, importDataset, type FollowingDatasetStore } from '@allmenning/datasets'
import { openSqlite } from '../store/sqlite-connection.js'
import { holdings } from '../testing/test-datasets.js'
import type { FollowedManifest, SnapshotSource } from './snapshot-source.js'

let dir: string
const stores: FollowingDatasetStore[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'allmenning-follow-'))
})
afterEach(() => {
  for (const store of stores.splice(0)) store.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * A published snapshot kept in memory: `publish` imports rows into a store of its own and
 * copies it, as `datasets publish` does to S3. `fail` makes the next downloads fail after
 * writing part of the file, as a connection cut off mid-download would.
 */
function createMemoryPublisher() {
  const published = new Map<string, string>()
  let manifest: FollowedManifest | undefined
  let count = 0
  const publisher = {
    downloads: 0,
    fail: undefined as Error | undefined,
    manifestFails: undefined as Error | undefined,
    async publish(owners: string[]): Promise<FollowedManifest> {
      count++
      const csv = join(dir, `publish-${count}.csv`)
      writeFileSync(
        csv,
        `Org;Owner;Shares;Place\n${owners.map((owner, i) => `111;${owner};${i + 1};Oslo`).join('\n')}\n`,
      )
      const storePath = join(dir, `publisher-${count}.sqlite`)
      await importDataset({
        path: storePath,
        dataset: holdings,
        inputs: [{ file: 'holdings.csv', path: csv, url: null }],
        publishedAt: '2024-12-31',
      })
      const copy = join(dir, `snapshot-${count}.sqlite`)
      const db = openSqlite(storePath)
      db.exec(`VACUUM INTO '${copy}'`)
      const entry = db.prepare("SELECT loaded_at, rows FROM allmenning_datasets WHERE id = 'holdings'").get()!
      db.close()
      const id = `2026-11-25T0${count}0000Z-${count}`
      published.set(id, copy)
      manifest = {
        id,
        createdAt: new Date().toISOString(),
        bytes: 0,
        sha256: 'x',
        datasets: [
          { id: 'holdings', version: '2024-12-31', loadedAt: String(entry.loaded_at), rows: Number(entry.rows) },
        ],
      }
      return manifest
    },
    source: {
      url: 's3://test-bucket/datasets',
      async readManifest() {
        if (publisher.manifestFails) throw publisher.manifestFails
        if (!manifest) throw new Error('NoSuchKey: manifest.json does not exist in bucket test-bucket')
        return manifest
      },
      async download(wanted: FollowedManifest, path: string) {
        publisher.downloads++
        if (publisher.fail) {
          writeFileSync(path, 'SQLite format 3\u0000 and then nothing')
          throw publisher.fail
        }
        copyFileSync(published.get(wanted.id)!, path)
      },
    } satisfies SnapshotSource,
  }
  return publisher
}

function follow(
  publisher: ReturnType<typeof createMemoryPublisher>,
  extra: { keepPreviousSeconds?: number; onError?: (error: Error) => void } = {},
) {
  const store = createSqliteDatasetStore({
    follow: {
      source: publisher.source,
      directory: join(dir, 'follow'),
      checkEverySeconds: 3600,
      keepPreviousSeconds: 0,
      ...extra,
    },
  })
  stores.push(store)
  return store
}

const owners = async (store: FollowingDatasetStore) =>
  (await store.reader(holdings)!.select<{ owner: string }>('holdings', { orderBy: [{ column: 'owner' }] })).map(
    (row) => row.owner,
  )
const snapshotFiles = () => readdirSync(join(dir, 'follow')).filter((name) => name !== 'following.json')

describe('a store following a published snapshot', () => {
  it('reads nothing and says the snapshot is being fetched until it arrives, then answers from it', async () => {
    const publisher = createMemoryPublisher()
    const published = await publisher.publish(['Ann', 'Bob'])
    const store = follow(publisher)
    expect(store.reader(holdings)).toBeUndefined()
    expect(store.notLoadedReason?.(holdings)).toBe(
      'the snapshot s3://test-bucket/datasets is being fetched, try again shortly',
    )
    expect(await store.ready).toEqual(published)
    expect(await owners(store)).toEqual(['Ann', 'Bob'])
    expect(store.reader(holdings)!.version.loadedAt).toBe(published.datasets[0]!.loadedAt)
    expect(snapshotFiles()).toEqual([`${published.id}.sqlite`])
  })

  it('switches to a new snapshot: a reader already held finishes on the old file, new readers read the new one', async () => {
    const publisher = createMemoryPublisher()
    const first = await publisher.publish(['Ann', 'Bob'])
    const store = follow(publisher, { keepPreviousSeconds: 3600 })
    await store.ready
    const held = store.reader(holdings)!
    const second = await publisher.publish(['Cid'])
    expect(await store.check()).toBe(true)
    expect(store.snapshot()).toEqual(second)
    // The gateway keys cached answers by loadedAt: the new snapshot must present its own.
    expect(store.reader(holdings)!.version.loadedAt).toBe(second.datasets[0]!.loadedAt)
    expect(store.reader(holdings)!.version.loadedAt).not.toBe(first.datasets[0]!.loadedAt)
    expect(await owners(store)).toEqual(['Cid'])
    expect(
      (await held.select<{ owner: string }>('holdings', { orderBy: [{ column: 'owner' }] })).map((row) => row.owner),
    ).toEqual(['Ann', 'Bob'])
    expect(snapshotFiles().sort()).toEqual([`${first.id}.sqlite`, `${second.id}.sqlite`])
    // A third publish while the previous file is still read waits: never three files.
    await publisher.publish(['Dan'])
    expect(await store.check()).toBe(false)
    expect(snapshotFiles()).toHaveLength(2)
  })

  it('deletes the previous file once nothing reads it, and a reader held past that reads what is served now', async () => {
    const publisher = createMemoryPublisher()
    const first = await publisher.publish(['Ann'])
    const store = follow(publisher)
    await store.ready
    const held = store.reader(holdings)!
    const second = await publisher.publish(['Bob'])
    await store.check()
    store.reader(holdings) // a request after the switch lets the idle previous file go
    expect(snapshotFiles()).toEqual([`${second.id}.sqlite`])
    expect(existsSync(join(dir, 'follow', `${first.id}.sqlite`))).toBe(false)
    expect((await held.select<{ owner: string }>('holdings')).map((row) => row.owner)).toEqual(['Bob'])
  })

  it('keeps serving the old snapshot when a download fails, reports it, and leaves no partial file', async () => {
    const publisher = createMemoryPublisher()
    const first = await publisher.publish(['Ann'])
    const errors: Error[] = []
    const store = follow(publisher, { onError: (error) => errors.push(error) })
    await store.ready
    const second = await publisher.publish(['Bob'])
    publisher.fail = new Error('socket hang up')
    expect(await store.check()).toBe(false)
    expect(errors.map((error) => error.message)).toEqual([
      `Could not download the snapshot ${second.id} of s3://test-bucket/datasets: socket hang up`,
    ])
    expect(await owners(store)).toEqual(['Ann'])
    expect(snapshotFiles()).toEqual([`${first.id}.sqlite`])
    publisher.fail = undefined
    expect(await store.check()).toBe(true)
    expect(await owners(store)).toEqual(['Bob'])
  })

  it('refuses a snapshot whose file does not hold what its manifest lists, and keeps the old one', async () => {
    const publisher = createMemoryPublisher()
    await publisher.publish(['Ann'])
    const errors: Error[] = []
    const store = follow(publisher, { onError: (error) => errors.push(error) })
    await store.ready
    const second = await publisher.publish(['Bob'])
    second.datasets[0]!.loadedAt = '2020-01-01T00:00:00.000Z'
    expect(await store.check()).toBe(false)
    expect(errors[0]?.message).toMatch(
      new RegExp(`^The snapshot ${second.id} of s3://test-bucket/datasets holds no holdings of 2020-01-01`),
    )
    expect(await owners(store)).toEqual(['Ann'])
    expect(snapshotFiles()).toHaveLength(1)
  })

  it('rejects ready and keeps saying why when the first fetch fails', async () => {
    const publisher = createMemoryPublisher()
    const errors: Error[] = []
    const store = follow(publisher, { onError: (error) => errors.push(error) })
    await expect(store.ready).rejects.toThrow(
      'Could not read the manifest of the snapshot s3://test-bucket/datasets: NoSuchKey',
    )
    expect(errors).toHaveLength(1)
    expect(store.reader(holdings)).toBeUndefined()
    expect(store.notLoadedReason?.(holdings)).toMatch(
      /is being fetched, try again shortly; the last attempt failed: Could not read the manifest/,
    )
    await publisher.publish(['Ann'])
    expect(await store.check()).toBe(true)
    expect(await owners(store)).toEqual(['Ann'])
  })

  it('serves the snapshot an earlier run left on disk, without downloading it again, even when the manifest cannot be read', async () => {
    const publisher = createMemoryPublisher()
    const first = await publisher.publish(['Ann'])
    const before = follow(publisher)
    await before.ready
    before.close()
    expect(publisher.downloads).toBe(1)
    const again = follow(publisher)
    await again.ready
    expect(publisher.downloads).toBe(1)
    expect(await owners(again)).toEqual(['Ann'])
    again.close()
    publisher.manifestFails = new Error('getaddrinfo ENOTFOUND')
    const errors: Error[] = []
    const offline = follow(publisher, { onError: (error) => errors.push(error) })
    expect(await offline.ready).toMatchObject({ id: first.id })
    expect(await owners(offline)).toEqual(['Ann'])
    expect(errors[0]?.message).toMatch(/ENOTFOUND/)
  })

  it('checks on a request once the interval has passed when told to (Lambda, whose timers sleep), without making it wait', async () => {
    const publisher = createMemoryPublisher()
    const first = await publisher.publish(['Ann'])
    const switched: string[] = []
    const store = createSqliteDatasetStore({
      follow: {
        source: publisher.source,
        directory: join(dir, 'follow'),
        checkOn: 'request',
        checkEverySeconds: 1,
        keepPreviousSeconds: 0,
        onSwitch: (m) => switched.push(m.id),
      },
    })
    stores.push(store)
    await store.ready
    const second = await publisher.publish(['Bob'])
    // Within the interval a request checks nothing.
    expect(await owners(store)).toEqual(['Ann'])
    expect(publisher.downloads).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 1050))
    // The first request after it answers from what is served now and starts the check; nothing else does.
    expect(await owners(store)).toEqual(['Ann'])
    for (let waited = 0; switched.length < 2 && waited < 2000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20))
    expect(switched).toEqual([first.id, second.id])
    expect(await owners(store)).toEqual(['Bob'])
  })

  it('refuses an import into the directory it follows the snapshot in', async () => {
    const publisher = createMemoryPublisher()
    await publisher.publish(['Ann'])
    const store = follow(publisher)
    await store.ready
    const csv = join(dir, 'more.csv')
    writeFileSync(csv, 'Org;Owner;Shares\n222;Eve;1\n')
    await expect(
      importDataset({
        path: join(dir, 'follow', 'allmenning.sqlite'),
        dataset: holdings,
        inputs: [{ file: 'holdings.csv', path: csv, url: null }],
        publishedAt: null,
      }),
    ).rejects.toThrow(
      /follow\S* holds a copy of the snapshot s3:\/\/test-bucket\/datasets, which a dataset store follows read-only: import where the snapshot is published/,
    )
  })
})
