import { randomBytes } from 'node:crypto'
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { PassThrough } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { S3Client } from '@aws-sdk/client-s3'
import { s3Sdk, storageSdk } from './aws-sdk.js'
import { readLoadedDatasets, type LoadedDatasetEntry } from '../store/loaded-datasets-table.js'
import { openSqlite } from '../store/sqlite-connection.js'
import { SnapshotError, snapshotErrorFrom } from './snapshot-errors.js'
import { manifestKey, snapshotKey, snapshotsFolder, type SnapshotLocation } from './snapshot-location.js'
import {
  readSnapshotManifest,
  sameDatasetVersions,
  snapshotFormat,
  type SnapshotDataset,
  type SnapshotManifest,
} from './snapshot-manifest.js'
import { createMeter } from './snapshot-stream.js'
import { copyStore } from './store-copy.js'

/** How far a publish has come. */
export type PublishProgress =
  | { phase: 'copying' }
  | {
      phase: 'uploading'
      /** Compressed bytes the store has acknowledged. */
      uploadedBytes: number
      /** Bytes of the copy read and compressed so far, of `sqliteBytes`. */
      readBytes: number
      sqliteBytes: number
    }
  | { phase: 'switching' }

/** Options of {@link publishSnapshot}. */
export interface PublishSnapshotOptions {
  /** The SQLite store to publish (`datasetStorePath(dataDir)`). */
  storePath: string
  location: SnapshotLocation
  client: S3Client
  /** Publish even when the current manifest already names every version the store holds. */
  force?: boolean
  signal?: AbortSignal
  onProgress?: (progress: PublishProgress) => void
  /** Where the consistent copy is made while it uploads; default: a temporary folder beside the store (same disk, which has room for a copy). */
  workDir?: string
}

/** What {@link publishSnapshot} did. */
export type PublishResult =
  /**
   * A new snapshot is current; `deleted` are the keys of snapshots older than `previous` it
   * removed, and `pruneFailed` says why removing them failed (the publish stands all the same).
   */
  | {
      status: 'published'
      manifest: SnapshotManifest
      previous: SnapshotManifest | null
      deleted: string[]
      pruneFailed?: string
    }
  /** The current manifest already names the versions the store holds: nothing was uploaded. */
  | { status: 'unchanged'; manifest: SnapshotManifest }

/** Parts of 8 MiB, four in flight: 32 MiB of memory at most, snapshots up to 80 GB. */
const partSize = 8 * 1024 * 1024
const queueSize = 4

function snapshotId(now: Date): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`
}

/** The manifest's list of datasets from a store's catalog. */
export function datasetsOf(catalog: Map<string, LoadedDatasetEntry>): SnapshotDataset[] {
  return [...catalog.values()]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((entry) => ({ id: entry.id, version: entry.publishedAt, loadedAt: entry.loadedAt, rows: entry.rows }))
}

function storeDatasets(storePath: string): SnapshotDataset[] {
  if (!existsSync(storePath))
    throw new Error(
      `there is no store at ${storePath} to publish; load datasets first ("allmenning datasets sync" or "import")`,
    )
  const db = openSqlite(storePath, { readonly: true })
  try {
    return datasetsOf(readLoadedDatasets(db))
  } finally {
    db.close()
  }
}

async function previousManifest(options: PublishSnapshotOptions): Promise<SnapshotManifest | null> {
  try {
    return await readSnapshotManifest(
      options.location,
      options.client,
      options.signal ? { signal: options.signal } : {},
    )
  } catch (error) {
    if (
      error instanceof SnapshotError &&
      (error.code === 'not-published' || (error.code === 'bad-manifest' && options.force))
    )
      return null
    if (error instanceof SnapshotError && error.code === 'bad-manifest')
      throw new SnapshotError('bad-manifest', `${error.message}; publish with --force (force: true) to replace it`)
    throw error
  }
}

/** Uploads the copy gzip-compressed, hashing it on the way; returns the compressed size and sha256. */
async function upload(
  options: PublishSnapshotOptions,
  copyPath: string,
  sqliteBytes: number,
  key: string,
): Promise<{ bytes: number; sha256: string }> {
  let uploadedBytes = 0
  const report = (readBytes: number) =>
    options.onProgress?.({ phase: 'uploading', uploadedBytes, readBytes, sqliteBytes })
  const source = createReadStream(copyPath)
  let readBytes = 0
  source.on('data', (chunk) => {
    readBytes += chunk.length
  })
  const meter = createMeter()
  const body = new PassThrough()
  const abort = new AbortController()
  const upload = new (storageSdk().Upload)({
    client: options.client,
    params: {
      Bucket: options.location.bucket,
      Key: key,
      Body: body,
      ContentType: 'application/gzip',
      CacheControl: 'max-age=31536000, immutable',
    },
    partSize,
    queueSize,
    abortController: abort,
  })
  upload.on('httpUploadProgress', (progress) => {
    uploadedBytes = progress.loaded ?? uploadedBytes
    report(readBytes)
  })
  const stop = () => abort.abort(options.signal?.reason)
  options.signal?.addEventListener('abort', stop, { once: true })
  const compressing = pipeline(source, createGzip(), meter, body)
  const uploading = upload.done()
  try {
    // Either side failing stops the other: a stalled body would hold the upload forever.
    await Promise.all([
      compressing.catch((error) => {
        abort.abort(error)
        throw error
      }),
      uploading.catch((error) => {
        body.destroy(error instanceof Error ? error : new Error(String(error)))
        throw error
      }),
    ])
  } catch (error) {
    await Promise.allSettled([compressing, uploading])
    if (options.signal?.aborted) throw options.signal.reason
    throw snapshotErrorFrom(error, options.location, `uploading the snapshot to ${options.location.url}`)
  } finally {
    options.signal?.removeEventListener('abort', stop)
  }
  report(readBytes)
  return { bytes: meter.bytes, sha256: meter.sha256() }
}

/** Removes the snapshots the manifest no longer names, but the current one and the one before. */
async function prune(options: PublishSnapshotOptions, keep: Set<string>): Promise<string[]> {
  const { location, client } = options
  const { DeleteObjectCommand, ListObjectsV2Command } = s3Sdk()
  const deleted: string[] = []
  let token: string | undefined
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: location.bucket,
        Prefix: snapshotsFolder(location),
        ContinuationToken: token,
      }),
    )
    for (const object of page.Contents ?? []) {
      const key = object.Key
      if (!key || keep.has(key) || !/\/?snapshots\/[0-9A-Za-z-]+\.sqlite\.gz$/.test(key)) continue
      // One DeleteObject per key: multi-object delete needs a Content-MD5 some stores want and the SDK no longer sends.
      await client.send(new DeleteObjectCommand({ Bucket: location.bucket, Key: key }))
      deleted.push(key)
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined
  } while (token)
  return deleted
}

/**
 * Publishes the store as an immutable snapshot under `location`: a consistent copy (taken even
 * while an import runs), gzip-compressed and hashed as it streams to `snapshots/<id>.sqlite.gz`
 * (multipart for large files), then `manifest.json` naming it, with each dataset's version, the
 * size and the sha256. The manifest is replaced only once the object is stored, so a reader
 * never sees half a publish; then snapshots older than the one the manifest named before are
 * deleted (the previous one stays, for a reader that read the old manifest a moment ago).
 * When the manifest already names every version the store holds, nothing is uploaded.
 * The copy is made synchronously (SQLite's `VACUUM INTO`, seconds for a store of gigabytes):
 * publish from the command line, a scheduled job or a worker, not from a thread serving requests.
 *
 * @example
 * const result = await publishSnapshot({
 *   storePath: 'data/allmenning.sqlite',
 *   location: parseSnapshotUrl('s3://allmenning-data/prod'),
 *   client: createSnapshotClient(),
 * })
 * if (result.status === 'published') console.log(result.manifest.id, result.manifest.bytes)
 */
export async function publishSnapshot(options: PublishSnapshotOptions): Promise<PublishResult> {
  const { location, client } = options
  const current = storeDatasets(options.storePath)
  if (current.length === 0)
    throw new Error(`the store at ${options.storePath} has no dataset loaded; there is nothing to publish`)
  // Read first: wrong credentials or a missing bucket fail before the copy is made.
  const previous = await previousManifest(options)
  if (previous && !options.force && sameDatasetVersions(previous.datasets, current))
    return { status: 'unchanged', manifest: previous }
  const work = mkdtempSync(
    join(options.workDir ?? dirname(options.storePath), `.${basename(options.storePath)}.publish-`),
  )
  try {
    options.onProgress?.({ phase: 'copying' })
    const copy = copyStore(options.storePath, join(work, 'snapshot.sqlite'))
    options.signal?.throwIfAborted()
    const now = new Date()
    const id = snapshotId(now)
    const object = `snapshots/${id}.sqlite.gz`
    const key = snapshotKey(location, object)
    const { bytes, sha256 } = await upload(options, copy.path, copy.bytes, key)
    options.onProgress?.({ phase: 'switching' })
    let manifest: SnapshotManifest
    const { HeadObjectCommand, PutObjectCommand } = s3Sdk()
    try {
      // The object must be there, whole, before the manifest may name it.
      const stored = await client.send(new HeadObjectCommand({ Bucket: location.bucket, Key: key }))
      if (stored.ContentLength !== undefined && stored.ContentLength !== bytes) {
        throw new SnapshotError(
          'corrupt',
          `the store holds ${stored.ContentLength} bytes of snapshot ${id} at ${location.url}, and ${bytes} were uploaded; the manifest was left as it was`,
        )
      }
      manifest = {
        format: snapshotFormat,
        id,
        createdAt: now.toISOString(),
        object,
        bytes,
        sha256,
        sqliteBytes: copy.bytes,
        datasets: datasetsOf(copy.catalog),
      }
      await client.send(
        new PutObjectCommand({
          Bucket: location.bucket,
          Key: manifestKey(location),
          Body: `${JSON.stringify(manifest, null, 2)}\n`,
          ContentType: 'application/json',
          // Readers poll it: no cache between them and the store may hold an old one.
          CacheControl: 'no-cache',
        }),
      )
    } catch (error) {
      throw snapshotErrorFrom(error, location, `publishing snapshot ${id} to ${location.url}`)
    }
    const keep = new Set([key, ...(previous ? [snapshotKey(location, previous.object)] : [])])
    try {
      return { status: 'published', manifest, previous, deleted: await prune(options, keep) }
    } catch (error) {
      return {
        status: 'published',
        manifest,
        previous,
        deleted: [],
        pruneFailed: snapshotErrorFrom(
          error,
          location,
          `removing snapshots older than the previous one at ${location.url}`,
        ).message,
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
