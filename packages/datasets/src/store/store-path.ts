import { join } from 'node:path'

/** The store file's name inside a data directory. */
export const storeFileName = 'allmenning.sqlite'

/**
 * The data directory: `ALLMENNING_DATA_DIR`, or `./data`.
 *
 * @example
 * defaultDataDir(process.env) // './data'
 */
export function defaultDataDir(env: Record<string, string | undefined>): string {
  const dir = env.ALLMENNING_DATA_DIR?.trim()
  return dir ? dir : './data'
}

/**
 * The store file of a data directory, where the command line writes and the gateway reads.
 *
 * @example
 * createSqliteDatasetStore({ path: datasetStorePath(defaultDataDir(process.env)), readonly: true })
 */
export function datasetStorePath(dataDir: string): string {
  return join(dataDir, storeFileName)
}
