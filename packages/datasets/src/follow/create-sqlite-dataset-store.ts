import {
  openSqliteDatasetStore,
  type SqliteDatasetStore,
  type SqliteDatasetStoreOptions,
} from '../store/sqlite-store.js'
import { followSnapshot } from './follow-snapshot.js'
import type { FollowingDatasetStore, FollowSnapshotOptions } from './following-store.js'

// The public factory sits above both the plain store and its follower, so that the store (which
// the follower opens each snapshot with) does not import the follower back.

/**
 * Options of {@link createSqliteDatasetStore} for a store that serves a published snapshot
 * (`npx allmenning datasets publish`) from a local copy, kept current: see {@link FollowSnapshotOptions}.
 */
export interface FollowingSqliteStoreOptions {
  follow: FollowSnapshotOptions
}

/**
 * The built-in dataset store: one SQLite file (node:sqlite, or better-sqlite3 on Node 20), opened once and read
 * synchronously, so a lookup costs microseconds. Each dataset's loaded generation is found
 * through a small catalog table; when another connection (the command line, an import
 * worker) commits a new generation, SQLite's `data_version` changes and the catalog is read
 * again, so the next lookup answers from the new generation without a restart.
 *
 * @example
 * import { createSqliteDatasetStore } from '@allmenning/datasets'
 * const datasets = createSqliteDatasetStore({ path: './data/allmenning.sqlite', readonly: true })
 * const gateway = createGateway({ sources: builtInSources(process.env), datasets })
 *
 * // Or serve a published snapshot, downloaded to local disk and switched to each new one:
 * const following = createSqliteDatasetStore({ follow: { url: 's3://my-bucket/allmenning', directory: '/tmp/allmenning' } })
 */
export function createSqliteDatasetStore(options: FollowingSqliteStoreOptions): FollowingDatasetStore
export function createSqliteDatasetStore(options: SqliteDatasetStoreOptions): SqliteDatasetStore
export function createSqliteDatasetStore(
  given: SqliteDatasetStoreOptions | FollowingSqliteStoreOptions,
): SqliteDatasetStore {
  if ('follow' in given) return followSnapshot(given.follow, (path) => openSqliteDatasetStore({ path, readonly: true }))
  return openSqliteDatasetStore(given)
}
