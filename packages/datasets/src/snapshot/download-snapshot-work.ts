import { randomBytes } from 'node:crypto'
import { createWriteStream, mkdirSync, rmSync } from 'node:fs'
import { open, rename } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import type { S3Client } from '@aws-sdk/client-s3'
import { s3Sdk } from './aws-sdk.js'
import { isNoSuchKey, SnapshotError, snapshotErrorFrom } from './snapshot-errors.js'
import { snapshotKey, type SnapshotLocation } from './snapshot-location.js'
import type { SnapshotManifest } from './snapshot-manifest.js'
import { createMeter } from './snapshot-stream.js'

const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1')

async function startsLikeSqlite(path: string): Promise<boolean> {
  const file = await open(path, 'r')
  try {
    const head = Buffer.alloc(sqliteHeader.length)
    const { bytesRead } = await file.read(head, 0, head.length, 0)
    return bytesRead === head.length && head.equals(sqliteHeader)
  } finally {
    await file.close()
  }
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? ''
  return code.startsWith('Z_') || code === 'ERR_ZLIB_INITIALIZATION_FAILED'
}

// The work of downloadSnapshot (download-snapshot.ts), in a file of its own that only that
// function imports, on its first call: gunzip, hashing and the file streams are then neither
// loaded nor evaluated by a process that never downloads a snapshot (a cold start following a
// snapshot it already has, or none).

/** Options of {@link downloadSnapshot}. */
export interface DownloadSnapshotOptions {
  client: S3Client
  signal?: AbortSignal
  /** Compressed bytes received so far, of `total` (the manifest's `bytes`). */
  onProgress?: (received: number, total: number) => void
}

/** A downloaded, checked snapshot. */
export interface DownloadedSnapshot {
  /** The SQLite file: `toPath`. */
  path: string
  manifest: SnapshotManifest
  /** Compressed bytes downloaded. */
  bytes: number
}

/** {@link downloadSnapshot}'s work; see it for what is checked and when. */
export async function downloadAndCheckSnapshot(
  location: SnapshotLocation,
  manifest: SnapshotManifest,
  toPath: string,
  options: DownloadSnapshotOptions,
): Promise<DownloadedSnapshot> {
  const named = `snapshot ${manifest.id} (${location.url}/${manifest.object})`
  mkdirSync(dirname(toPath), { recursive: true })
  const partial = join(dirname(toPath), `.${basename(toPath)}.${manifest.id}.${randomBytes(4).toString('hex')}.partial`)
  try {
    let body: Readable
    try {
      const { GetObjectCommand } = s3Sdk()
      const answer = await options.client.send(
        new GetObjectCommand({ Bucket: location.bucket, Key: snapshotKey(location, manifest.object) }),
        options.signal ? { abortSignal: options.signal } : {},
      )
      if (answer.ContentLength !== undefined && answer.ContentLength !== manifest.bytes) {
        ;(answer.Body as Readable | undefined)?.destroy()
        throw new SnapshotError(
          'corrupt',
          `${named} is ${answer.ContentLength} bytes in the store, and its manifest says ${manifest.bytes}; refused`,
        )
      }
      body = answer.Body as Readable
    } catch (error) {
      if (isNoSuchKey(error)) {
        throw new SnapshotError(
          'missing-object',
          `${named} is not in the store: a newer publish may have replaced it; read the manifest again`,
          { cause: error },
        )
      }
      throw snapshotErrorFrom(error, location, `downloading ${named}`)
    }
    const meter = createMeter((received) => options.onProgress?.(received, manifest.bytes))
    const gunzip = createGunzip()
    try {
      await pipeline(body, meter, gunzip, createWriteStream(partial), options.signal ? { signal: options.signal } : {})
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      if (isZlibError(error))
        throw new SnapshotError(
          'corrupt',
          `${named} is corrupt: it does not decompress (${(error as Error).message}); refused`,
          { cause: error },
        )
      throw snapshotErrorFrom(error, location, `downloading ${named}`)
    }
    if (meter.bytes !== manifest.bytes)
      throw new SnapshotError(
        'corrupt',
        `${named} came as ${meter.bytes} bytes, and its manifest says ${manifest.bytes}; refused`,
      )
    const sha256 = meter.sha256()
    if (sha256 !== manifest.sha256)
      throw new SnapshotError(
        'corrupt',
        `${named} has sha256 ${sha256}, and its manifest says ${manifest.sha256}; refused`,
      )
    const file = await open(partial, 'r+')
    try {
      const { size } = await file.stat()
      if (size !== manifest.sqliteBytes)
        throw new SnapshotError(
          'corrupt',
          `${named} decompresses to ${size} bytes, and its manifest says ${manifest.sqliteBytes}; refused`,
        )
      // On disk before the rename makes it the file: a crash right after must not leave a hole.
      await file.sync()
    } finally {
      await file.close()
    }
    if (!(await startsLikeSqlite(partial))) throw new SnapshotError('corrupt', `${named} is not a SQLite file; refused`)
    await rename(partial, toPath)
    return { path: toPath, manifest, bytes: meter.bytes }
  } finally {
    rmSync(partial, { force: true })
  }
}
