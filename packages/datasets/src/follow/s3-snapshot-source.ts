import type { S3Client } from '@aws-sdk/client-s3'
import { createSnapshotClient } from '../snapshot/snapshot-client.js'
import { downloadSnapshot } from '../snapshot/download-snapshot.js'
import { parseSnapshotUrl } from '../snapshot/snapshot-location.js'
import { readSnapshotManifest, type SnapshotManifest } from '../snapshot/snapshot-manifest.js'
import type { SnapshotSource } from './snapshot-source.js'

/**
 * The snapshot published at an `s3://bucket/prefix` URL, read through the AWS SDK: the
 * manifest, and each snapshot downloaded with its size and sha256 checked before it is
 * written. `client` defaults to `createSnapshotClient()` (endpoint, path style and region from
 * `ALLMENNING_SNAPSHOT_ENDPOINT`, `ALLMENNING_SNAPSHOT_PATH_STYLE` and the SDK's variables).
 *
 * @example
 * createSqliteDatasetStore({ follow: { source: s3SnapshotSource('s3://allmenning-data/prod'), directory: '/tmp/allmenning' } })
 */
export function s3SnapshotSource(url: string, client: S3Client = createSnapshotClient()): SnapshotSource {
  const location = parseSnapshotUrl(url)
  return {
    url: location.url,
    readManifest: (signal) => readSnapshotManifest(location, client, signal ? { signal } : {}),
    async download(manifest, path, signal) {
      await downloadSnapshot(location, manifest as SnapshotManifest, path, { client, ...(signal ? { signal } : {}) })
    },
  }
}
