/** One dataset in a published snapshot, as its manifest lists it. */
export interface FollowedDataset {
  id: string
  version: string | null
  loadedAt: string
  rows: number
}

/** What a follower needs of a snapshot's `manifest.json`. */
export interface FollowedManifest {
  /** Names the snapshot: a new publish has a new id. */
  id: string
  createdAt: string
  /** The compressed object's size, in bytes. */
  bytes: number
  sha256: string
  datasets: FollowedDataset[]
}

/**
 * Where a follower reads a published snapshot from: its manifest, and the snapshot itself
 * written to a local file. The built-in one reads S3 (and S3-compatible stores); a test or
 * another kind of storage can give its own.
 *
 * @example
 * import { copyFile, readFile } from 'node:fs/promises'
 *
 * const source: SnapshotSource = {
 *   url: 'file:///srv/snapshots',
 *   readManifest: async () => JSON.parse(await readFile('/srv/snapshots/manifest.json', 'utf8')),
 *   // Verify, then write `path`, or leave nothing there.
 *   download: async (manifest, path) => copyFile(`/srv/snapshots/${manifest.id}.sqlite`, path),
 * }
 */
export interface SnapshotSource {
  /** Where the snapshot is published, for messages (`s3://bucket/prefix`). */
  readonly url: string
  /** The current manifest. */
  readManifest(signal?: AbortSignal): Promise<FollowedManifest>
  /**
   * Writes the SQLite file of `manifest`'s snapshot at `path` once its checksum is verified.
   * On any failure it rejects and leaves no file at `path`.
   */
  download(manifest: FollowedManifest, path: string, signal?: AbortSignal): Promise<void>
}
