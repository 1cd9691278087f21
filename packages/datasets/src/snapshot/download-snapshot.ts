import type { SnapshotLocation } from './snapshot-location.js'
import type { SnapshotManifest } from './snapshot-manifest.js'
// Types only: erased from the build, so the work file is still loaded on the first download alone.
import type { DownloadedSnapshot, DownloadSnapshotOptions } from './download-snapshot-work.js'

export type { DownloadedSnapshot, DownloadSnapshotOptions }

/**
 * Downloads the snapshot `manifest` names to `toPath`, checking it on the way: the compressed
 * bytes are counted and hashed as they stream and decompressed into a temporary file beside
 * `toPath`; only when the size and sha256 match the manifest (and the result is a SQLite file)
 * is the temporary file synced and renamed over `toPath`, in one step. Anything else (a corrupt
 * or truncated object, a store that goes away mid-download, an abort) removes the temporary
 * file and leaves `toPath` as it was. A bad checksum throws a `corrupt` {@link SnapshotError}
 * naming the snapshot; a snapshot deleted since the manifest was read, `missing-object`.
 *
 * @example
 * const client = createSnapshotClient()
 * const location = parseSnapshotUrl('s3://allmenning-data/prod')
 * const manifest = await readSnapshotManifest(location, client)
 * await downloadSnapshot(location, manifest, '/tmp/allmenning.sqlite', { client })
 */
export async function downloadSnapshot(
  location: SnapshotLocation,
  manifest: SnapshotManifest,
  toPath: string,
  options: DownloadSnapshotOptions,
): Promise<DownloadedSnapshot> {
  const { downloadAndCheckSnapshot } = await import('./download-snapshot-work.js')
  return downloadAndCheckSnapshot(location, manifest, toPath, options)
}
