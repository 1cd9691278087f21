import { join } from 'node:path'
import type { SqliteDatasetStore } from '../store/sqlite-store.js'
import { createSqliteDatasetStore } from './create-sqlite-dataset-store.js'
import { datasetStorePath, defaultDataDir } from '../store/store-path.js'
import { createSnapshotClient } from '../snapshot/snapshot-client.js'
import type { FollowingDatasetStore, FollowSnapshotOptions } from './following-store.js'

/** The variable naming a published snapshot to follow: `s3://bucket/prefix`. */
export const snapshotVariable = 'ALLMENNING_DATASETS_SNAPSHOT'

/** What {@link datasetStoreFromEnv} leaves to the caller: where it runs decides these. */
export type DatasetStoreFromEnvOptions = Partial<
  Pick<FollowSnapshotOptions, 'checkOn' | 'directory' | 'onError' | 'onSwitch'>
>

function seconds(env: Record<string, string | undefined>, name: string): number | undefined {
  const text = env[name]?.trim()
  if (!text) return undefined
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a whole number of seconds, 1 or more; got ${JSON.stringify(text)}`)
  return value
}

/**
 * The dataset store a deployment configures through its environment:
 * - `ALLMENNING_DATASETS_SNAPSHOT=s3://bucket/prefix`: follow the snapshot published there
 *   (`npx allmenning datasets publish`), kept in `ALLMENNING_DATASETS_SNAPSHOT_DIR` (default
 *   `<data dir>/snapshot`, or `options.directory`) and checked every
 *   `ALLMENNING_DATASETS_SNAPSHOT_CHECK_SECONDS` (default 60). The S3 client reads its endpoint
 *   from `ALLMENNING_SNAPSHOT_ENDPOINT`, path style from `ALLMENNING_SNAPSHOT_PATH_STYLE`, and
 *   credentials and region as the AWS SDK does.
 * - otherwise the file `npx allmenning datasets` writes in `ALLMENNING_DATA_DIR` (`./data`), read-only.
 *
 * @example
 * const datasets = datasetStoreFromEnv(process.env)
 * const gateway = createGateway({ sources: builtInSources(process.env), datasets })
 */
export function datasetStoreFromEnv(
  env: Record<string, string | undefined>,
  options: DatasetStoreFromEnvOptions = {},
): SqliteDatasetStore | FollowingDatasetStore {
  const url = env[snapshotVariable]?.trim()
  const dataDir = defaultDataDir(env)
  if (!url) return createSqliteDatasetStore({ path: datasetStorePath(dataDir), readonly: true })
  const checkEverySeconds = seconds(env, 'ALLMENNING_DATASETS_SNAPSHOT_CHECK_SECONDS')
  // The SDK reads credentials from process.env itself; an environment given apart from it brings its own.
  const credentials =
    env !== process.env && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? {
          accessKeyId: env.AWS_ACCESS_KEY_ID,
          secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
          ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
        }
      : undefined
  return createSqliteDatasetStore({
    follow: {
      url,
      client: createSnapshotClient({ env, ...(credentials ? { credentials } : {}) }),
      ...options,
      directory: env.ALLMENNING_DATASETS_SNAPSHOT_DIR?.trim() || options.directory || join(dataDir, 'snapshot'),
      ...(checkEverySeconds ? { checkEverySeconds } : {}),
    },
  })
}
