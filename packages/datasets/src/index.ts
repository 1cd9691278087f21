export { createSqliteDatasetStore, type FollowingSqliteStoreOptions } from './follow/create-sqlite-dataset-store.js'
export type { SqliteDatasetStore, SqliteDatasetStoreOptions } from './store/sqlite-store.js'
export type { FollowingDatasetStore, FollowSnapshotOptions } from './follow/following-store.js'
export type { SnapshotSource, FollowedManifest, FollowedDataset } from './follow/snapshot-source.js'
export { s3SnapshotSource } from './follow/s3-snapshot-source.js'
export {
  datasetStoreFromEnv,
  snapshotVariable,
  type DatasetStoreFromEnvOptions,
} from './follow/dataset-store-from-env.js'
export type { LoadedDatasetEntry, LoadedDatasetFile, CatalogEntry, CatalogFile } from './store/loaded-datasets-table.js'
export { importDataset, type ImportOptions } from './import/import-dataset.js'
export { defaultReadLimits, type ReadLimits } from './read/read-limits.js'
export { importInWorker, workerHeapLimitMb, type ImportInWorkerOptions } from './import/import-in-worker.js'
export {
  loadDatasetDefinitions,
  type DatasetDefinitionsRef,
  loadDatasetCatalog,
  type DatasetCatalogRef,
} from './import/dataset-definitions-module.js'
export {
  ImportError,
  type ImportInput,
  type ImportProgress,
  type ImportResult,
  type MalformedSample,
} from './import/import-types.js'
export { syncDataset, type SyncOptions, type SyncResult, type SyncEvent } from './sync/sync-dataset.js'
export {
  deriveDataset,
  derivedOrigin,
  syncOrder,
  type DeriveOptions,
  type DeriveOutcome,
} from './sync/derive-dataset.js'
export { downloadFile, DownloadError, type DownloadOptions, type DownloadResult } from './sync/download-file.js'
export { discoverFiles } from './sync/discover-files.js'
export { datasetMirrorFromEnv, datasetMirrorVariable, mirroredUrl } from './sync/dataset-mirror.js'
export { datasetStorePath, defaultDataDir, storeFileName } from './store/store-path.js'
export { runCli, type CliIo } from './cli/run-cli.js'
export { parseSnapshotUrl, SnapshotUrlError, type SnapshotLocation } from './snapshot/snapshot-location.js'
export { createSnapshotClient, type SnapshotClientOptions } from './snapshot/snapshot-client.js'
export { SnapshotError, type SnapshotErrorCode } from './snapshot/snapshot-errors.js'
export {
  readSnapshotManifest,
  sameDatasetVersions,
  snapshotFormat,
  type SnapshotManifest,
  type SnapshotDataset,
} from './snapshot/snapshot-manifest.js'
export {
  publishSnapshot,
  type PublishSnapshotOptions,
  type PublishResult,
  type PublishProgress,
} from './snapshot/publish-snapshot.js'
export {
  downloadSnapshot,
  type DownloadSnapshotOptions,
  type DownloadedSnapshot,
} from './snapshot/download-snapshot.js'
export { datasetLoadCommand } from './store/load-command.js'
