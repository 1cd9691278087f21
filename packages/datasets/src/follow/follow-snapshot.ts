import type { SqliteDatasetStore } from '../store/sqlite-store.js'
import { createFollowingStore, type FollowingDatasetStore, type FollowSnapshotOptions } from './following-store.js'

/**
 * The store behind `createSqliteDatasetStore({ follow })`: the snapshot's source from the
 * options (`source`, or the S3 one for `url`), each snapshot file opened with `open`.
 */
export function followSnapshot(options: FollowSnapshotOptions, open: (path: string) => SqliteDatasetStore): FollowingDatasetStore {
  const source = options.source
  if (!source) throw new TypeError(`follow needs a source; reading ${options.url ?? 'a url'} from S3 is not available yet`)
  return createFollowingStore(options, source, open)
}
