import type { SqliteDatasetStore } from '../store/sqlite-store.js'
import { createFollowingStore, type FollowingDatasetStore, type FollowSnapshotOptions } from './following-store.js'
import { s3SnapshotSource } from './s3-snapshot-source.js'

/**
 * The store behind `createSqliteDatasetStore({ follow })`: the snapshot's source from the
 * options (`source`, or the S3 one for `url`), each snapshot file opened with `open`.
 */
export function followSnapshot(
  options: FollowSnapshotOptions,
  open: (path: string) => SqliteDatasetStore,
): FollowingDatasetStore {
  const source = options.source ?? (options.url ? s3SnapshotSource(options.url, options.client) : undefined)
  if (!source) throw new TypeError('follow needs the url of a published snapshot (s3://bucket/prefix), or a source')
  return createFollowingStore(options, source, open)
}
