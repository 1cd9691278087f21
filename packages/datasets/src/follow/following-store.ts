import { join } from 'node:path'
import { datasetNotLoaded, type DatasetDefinition, type DatasetReader } from '@allmenning/core/source'
import { datasetLoadCommand } from '../store/load-command.js'
import type { S3Client } from '@aws-sdk/client-s3'
import type { SqliteDatasetStore } from '../store/sqlite-store.js'
import { writeFollowMarker } from '../store/follow-marker.js'
import type { FollowedManifest, SnapshotSource } from './snapshot-source.js'

// Taken from process.getBuiltinModule, not imported: an ESM import of node:fs reads every export,
// and its stream getters load Node's stream modules, a few ms of every cold start.
const { mkdirSync, readdirSync, renameSync, rmSync, chmodSync, existsSync, statSync } =
  process.getBuiltinModule('node:fs')

/** Options of a store that follows a published snapshot: `createSqliteDatasetStore({ follow })`. */
export interface FollowSnapshotOptions {
  /** Where the snapshot is published: `s3://bucket/prefix`. */
  url?: string
  /**
   * Where the snapshot is read from, instead of `url`: the S3 one made by
   * `s3SnapshotSource(url, client)`, or another kind of storage.
   */
  source?: SnapshotSource
  /** The S3 client for `url`; default `createSnapshotClient()`, configured by the environment. */
  client?: S3Client
  /**
   * The local directory the snapshot files are written to (on Lambda, under `/tmp`). It holds
   * at most two: the one being served and, while a switch is under way, the one before or after.
   */
  directory: string
  /** How often the manifest is checked for a new snapshot. Default 60. */
  checkEverySeconds?: number
  /**
   * `timer` (the default): a timer checks the manifest, without holding the process open.
   * `request`: a request that arrives after the interval starts a check (its answer does not
   * wait for it), for Lambda, whose timers do not run between invocations.
   */
  checkOn?: 'timer' | 'request'
  /**
   * How long the previous snapshot stays open after a switch once nothing reads it, for the
   * requests that began on it. Default 10 s; then its file is deleted.
   */
  keepPreviousSeconds?: number
  /** Every failure: a manifest that cannot be read, a download refused or cut off. The previous snapshot keeps serving. */
  onError?: (error: Error) => void
  /** A new snapshot is being served. */
  onSwitch?: (manifest: FollowedManifest) => void
}

/** A dataset store serving a published snapshot, switched to the newest one as it appears. */
export interface FollowingDatasetStore extends SqliteDatasetStore {
  /** Where the snapshot is published. */
  readonly following: string
  /**
   * Settles once the first attempt to fetch the snapshot has: resolved with the manifest being
   * served, or rejected with why nothing could be (the store keeps trying). Until then, dataset
   * operations answer 502 `dataset_not_loaded`, saying the snapshot is being fetched.
   */
  readonly ready: Promise<FollowedManifest>
  /** The manifest of the snapshot being served, if one is. */
  snapshot(): FollowedManifest | undefined
  /** Checks the manifest now; resolves `true` when it switched to a new snapshot. Failures go to `onError` and resolve `false`. */
  check(): Promise<boolean>
}

/** One snapshot file opened for reading. */
interface Held {
  manifest: FollowedManifest
  path: string
  store: SqliteDatasetStore
  /** When it was last read, or switched away from. */
  lastRead: number
  closed: boolean
  readers: WeakMap<DatasetReader, DatasetReader>
}

const snapshotSuffix = '.sqlite'
const partSuffix = '.sqlite.download'
// A snapshot id becomes a file name: nothing that climbs out of the directory or hides.
const safeId = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}

/**
 * A store that serves the snapshot published at `options.url` (or `options.source`) from a
 * local copy, and switches to each new one atomically: readers a request already holds finish
 * on the previous file; every reader asked for after the switch reads the new one. Built by
 * `createSqliteDatasetStore({ follow })`; `open` opens one snapshot file read-only.
 */
export function createFollowingStore(
  options: FollowSnapshotOptions,
  source: SnapshotSource,
  open: (path: string) => SqliteDatasetStore,
): FollowingDatasetStore {
  const directory = options.directory
  const everyMs = Math.max(1, options.checkEverySeconds ?? 60) * 1000
  const keepMs = Math.max(0, options.keepPreviousSeconds ?? 10) * 1000
  const onError = options.onError ?? ((error: Error) => console.error(`[allmenning] ${error.message}`))
  const checkOn = options.checkOn ?? 'timer'
  const abort = new AbortController()
  let current: Held | undefined
  const previous: Held[] = []
  let checking: Promise<boolean> | undefined
  let lastCheckAt = 0
  let lastError: Error | undefined
  let closed = false

  mkdirSync(directory, { recursive: true })
  writeFollowMarker(directory, source.url)

  function report(error: unknown): void {
    const failure = asError(error)
    lastError = failure
    try {
      onError(failure)
    } catch {
      // A throwing onError must not stop the follower.
    }
  }

  function localSnapshots(): Array<{ id: string; path: string; mtimeMs: number }> {
    const found = []
    for (const name of readdirSync(directory)) {
      if (!name.endsWith(snapshotSuffix)) continue
      const path = join(directory, name)
      found.push({ id: name.slice(0, -snapshotSuffix.length), path, mtimeMs: statSync(path).mtimeMs })
    }
    return found.sort((a, b) => b.mtimeMs - a.mtimeMs)
  }

  /** Opens a verified snapshot file and checks it holds what its manifest lists; closes and throws if not. */
  function hold(manifest: FollowedManifest, path: string): Held {
    const store = open(path)
    try {
      const loaded = store.loadedDatasets()
      const missing = manifest.datasets.filter((dataset) => loaded.get(dataset.id)?.loadedAt !== dataset.loadedAt)
      if (missing.length > 0)
        throw new Error(
          `holds no ${missing.map((d) => `${d.id} of ${d.loadedAt}`).join(', ')}, which its manifest lists`,
        )
    } catch (error) {
      store.close()
      throw error
    }
    return { manifest, path, store, lastRead: Date.now(), closed: false, readers: new WeakMap() }
  }

  function switchTo(next: Held): void {
    const before = current
    current = next
    if (before) {
      before.lastRead = Date.now()
      previous.push(before)
    }
    lastError = undefined
    options.onSwitch?.(next.manifest)
  }

  /** Closes and deletes each previous snapshot nothing has read for `keepMs`. */
  function releaseIdle(): void {
    const now = Date.now()
    for (let i = previous.length - 1; i >= 0; i--) {
      const held = previous[i]!
      if (now - held.lastRead < keepMs) continue
      previous.splice(i, 1)
      held.closed = true
      held.store.close()
      rmSync(held.path, { force: true })
    }
  }

  async function fetchSnapshot(): Promise<boolean> {
    let manifest: FollowedManifest
    try {
      manifest = await source.readManifest(abort.signal)
    } catch (error) {
      // Nothing served yet, but a snapshot from an earlier run is on disk: serve it meanwhile.
      if (!current) {
        const local = localSnapshots()[0]
        if (local) {
          try {
            switchTo(
              hold(
                { id: local.id, createdAt: new Date(local.mtimeMs).toISOString(), bytes: 0, sha256: '', datasets: [] },
                local.path,
              ),
            )
          } catch {
            // An unreadable leftover is no fallback; the manifest's failure is what to report.
          }
        }
      }
      throw new Error(`Could not read the manifest of the snapshot ${source.url}: ${asError(error).message}`, {
        cause: error,
      })
    }
    if (!safeId.test(manifest.id))
      throw new Error(
        `The manifest of ${source.url} names the snapshot ${JSON.stringify(manifest.id)}, which is no usable id`,
      )
    if (manifest.id === current?.manifest.id) return false
    const path = join(directory, manifest.id + snapshotSuffix)
    if (current?.path === path) {
      // Served from an earlier run's file while the manifest could not be read: it is this snapshot.
      current.manifest = manifest
      return false
    }
    releaseIdle()
    if (previous.length > 0) {
      // A third file would pass the two the directory may hold; the next check fetches it.
      return false
    }
    if (!existsSync(path)) {
      const part = join(directory, manifest.id + partSuffix)
      try {
        await source.download(manifest, part, abort.signal)
        renameSync(part, path)
      } catch (error) {
        rmSync(part, { force: true })
        throw new Error(`Could not download the snapshot ${manifest.id} of ${source.url}: ${asError(error).message}`, {
          cause: error,
        })
      }
      // The gateway only reads it; a writer that found it would be told so by the file system.
      chmodSync(path, 0o444)
    }
    if (closed) return false
    let next: Held
    try {
      next = hold(manifest, path)
    } catch (error) {
      rmSync(path, { force: true })
      throw new Error(`The snapshot ${manifest.id} of ${source.url} ${asError(error).message}`, { cause: error })
    }
    switchTo(next)
    return true
  }

  function check(): Promise<boolean> {
    if (closed) return Promise.resolve(false)
    if (checking) return checking
    lastCheckAt = Date.now()
    checking = fetchSnapshot()
      .catch((error: unknown) => {
        if (!closed) report(error)
        return false
      })
      .finally(() => {
        checking = undefined
      })
    return checking
  }

  // Leftovers of an earlier run: a download cut off, snapshots older than the newest.
  for (const name of readdirSync(directory))
    if (name.endsWith(partSuffix) || name.endsWith('.partial')) rmSync(join(directory, name), { force: true })

  const ready = new Promise<FollowedManifest>((resolve, reject) => {
    void fetchSnapshot().then(
      () => {
        const served = current
        for (const local of localSnapshots()) if (local.path !== served?.path) rmSync(local.path, { force: true })
        if (served) resolve(served.manifest)
        else reject(lastError ?? new Error(`Could not fetch the snapshot ${source.url}`))
      },
      (error: unknown) => {
        if (!closed) report(error)
        // An earlier run's snapshot serves while the manifest cannot be read.
        if (current) resolve(current.manifest)
        else reject(asError(error))
      },
    )
  })
  // Awaiting it is optional; a first failure is reported through onError either way.
  ready.catch(() => undefined)
  lastCheckAt = Date.now()
  checking = ready
    .then(
      () => true,
      () => false,
    )
    .finally(() => {
      checking = undefined
    })

  const timer = checkOn === 'timer' ? setInterval(() => void check(), everyMs) : undefined
  timer?.unref()
  // Previous snapshots are released even when no request comes to do it.
  const releaser = setInterval(releaseIdle, Math.max(keepMs, 1000))
  releaser.unref()

  function onRequest(): void {
    if (previous.length > 0) releaseIdle()
    if (checkOn !== 'request' || checking) return
    // Until a snapshot is served a failed fetch is retried sooner.
    const wait = current ? everyMs : Math.min(everyMs, 10_000)
    if (Date.now() - lastCheckAt >= wait) void check()
  }

  /** A reader of `held` that marks it read, and once it was closed reads what is served now. */
  function tracked(held: Held, dataset: DatasetDefinition, inner: DatasetReader): DatasetReader {
    const now = (): DatasetReader => {
      const reader = store.reader(dataset)
      if (!reader) throw datasetNotLoaded(dataset, store)
      return reader
    }
    return {
      version: inner.version,
      select(table, query) {
        if (held.closed) return now().select(table, query)
        held.lastRead = Date.now()
        return inner.select(table, query)
      },
      search(table, search) {
        if (held.closed) return now().search(table, search)
        held.lastRead = Date.now()
        return inner.search(table, search)
      },
      count(table, where) {
        if (held.closed) return now().count(table, where)
        held.lastRead = Date.now()
        return inner.count(table, where)
      },
    } as DatasetReader
  }

  /** What the snapshot held now has loaded; nothing before one is held. */
  function loadedDatasets() {
    return current ? current.store.loadedDatasets() : new Map()
  }

  const store: FollowingDatasetStore = {
    following: source.url,
    ready,
    get path() {
      return current?.path ?? join(directory, '(no snapshot yet)')
    },
    reader(dataset) {
      onRequest()
      const held = current
      if (!held) return undefined
      const inner = held.store.reader(dataset)
      if (!inner) return undefined
      let reader = held.readers.get(inner)
      if (!reader) {
        reader = tracked(held, dataset, inner)
        held.readers.set(inner, reader)
      }
      return reader
    },
    notLoadedReason(dataset) {
      if (!current) {
        const failed = lastError ? `; the last attempt failed: ${lastError.message}` : ''
        return `the snapshot ${source.url} is being fetched, try again shortly${failed}`
      }
      return `the snapshot ${source.url} (${current.manifest.id}) does not hold it; load it where the snapshot is published (${datasetLoadCommand(dataset)}) and publish again`
    },
    loadedDatasets,
    catalog: loadedDatasets,
    snapshot() {
      return current?.manifest
    },
    check,
    close() {
      closed = true
      abort.abort()
      if (timer) clearInterval(timer)
      clearInterval(releaser)
      for (const held of previous.splice(0)) {
        held.closed = true
        held.store.close()
        rmSync(held.path, { force: true })
      }
      if (current) {
        current.closed = true
        current.store.close()
      }
    },
  }
  return store
}
