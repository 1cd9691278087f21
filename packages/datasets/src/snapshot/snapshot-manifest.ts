import type { S3Client } from '@aws-sdk/client-s3'
import { s3Sdk } from './aws-sdk.js'
import { isNoSuchKey, SnapshotError, snapshotErrorFrom } from './snapshot-errors.js'
import { manifestKey, type SnapshotLocation } from './snapshot-location.js'

/** The format this version writes and reads; a reader refuses any other. */
export const snapshotFormat = 'allmenning-datasets-snapshot/1'

/** One dataset in a snapshot: the version its store had loaded when the snapshot was taken. */
export interface SnapshotDataset {
  id: string
  /** The publisher's date for the data, when known (what `_meta.datasets` reports as `publishedAt`). */
  version: string | null
  /** When this version was loaded into the store (ISO 8601); it names the generation. */
  loadedAt: string
  rows: number
}

/**
 * `manifest.json` at a snapshot location: which snapshot is current. It is replaced only after
 * the snapshot it names is fully uploaded, so whoever reads it can download that snapshot.
 */
export interface SnapshotManifest {
  format: typeof snapshotFormat
  /** `<UTC timestamp>-<random>`, e.g. `20261125T021500Z-3f9a1c`: sorts by time, never reused. */
  id: string
  createdAt: string
  /** The snapshot object's key relative to the location: `snapshots/<id>.sqlite.gz`. */
  object: string
  /** Size of the gzip-compressed object. */
  bytes: number
  /** sha256 of the compressed object, in hex. */
  sha256: string
  /** Size of the SQLite file once decompressed. */
  sqliteBytes: number
  datasets: SnapshotDataset[]
}

/**
 * Whether two lists name the same dataset versions (by id and `loadedAt`, which names a
 * generation): a store holding what a manifest names need not be published or pulled again.
 *
 * @example
 * const published = await readSnapshotManifest(parseSnapshotUrl('s3://my-bucket/prod'), createSnapshotClient())
 * const local: SnapshotManifest = published
 * sameDatasetVersions(published.datasets, local.datasets) // true when nothing changed
 */
export function sameDatasetVersions(a: readonly SnapshotDataset[], b: readonly SnapshotDataset[]): boolean {
  const key = (list: readonly SnapshotDataset[]) =>
    list
      .map((d) => `${d.id}\u0000${d.loadedAt}`)
      .sort()
      .join('\u0001')
  return key(a) === key(b)
}

const isCount = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/** Checks a parsed manifest's shape; throws a `bad-manifest` {@link SnapshotError} naming what is wrong. */
export function checkSnapshotManifest(value: unknown, location: SnapshotLocation): SnapshotManifest {
  const bad = (why: string) =>
    new SnapshotError('bad-manifest', `the manifest at ${location.url} is not usable: ${why}`)
  if (typeof value !== 'object' || value === null) throw bad('it is not a JSON object')
  const m = value as Record<string, unknown>
  if (m.format !== snapshotFormat)
    throw bad(`its format is ${JSON.stringify(m.format)}, and this version reads "${snapshotFormat}"`)
  if (typeof m.id !== 'string' || !/^[0-9A-Za-z-]+$/.test(m.id)) throw bad('"id" is not a snapshot id')
  if (m.object !== `snapshots/${m.id}.sqlite.gz`) throw bad(`"object" is not snapshots/${m.id}.sqlite.gz`)
  if (typeof m.createdAt !== 'string') throw bad('"createdAt" is missing')
  if (!isCount(m.bytes) || !isCount(m.sqliteBytes)) throw bad('"bytes" and "sqliteBytes" must be sizes in bytes')
  if (typeof m.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(m.sha256)) throw bad('"sha256" is not 64 hex digits')
  if (
    !Array.isArray(m.datasets) ||
    !m.datasets.every((d) => typeof d?.id === 'string' && typeof d?.loadedAt === 'string' && isCount(d?.rows))
  ) {
    throw bad('"datasets" is not a list of { id, version, loadedAt, rows }')
  }
  return m as unknown as SnapshotManifest
}

/**
 * Reads the manifest at `location`: the snapshot currently published there. Throws a
 * {@link SnapshotError}: `not-published` when there is none, `access-denied` (naming the
 * bucket) when the credentials are refused, `bad-manifest` when it is not one this version reads.
 *
 * @example
 * const manifest = await readSnapshotManifest(parseSnapshotUrl('s3://allmenning-data/prod'), createSnapshotClient())
 * manifest.datasets.map((d) => `${d.id} ${d.version}`)
 */
export async function readSnapshotManifest(
  location: SnapshotLocation,
  client: S3Client,
  options: { signal?: AbortSignal } = {},
): Promise<SnapshotManifest> {
  let text: string
  try {
    const { GetObjectCommand } = s3Sdk()
    const answer = await client.send(
      new GetObjectCommand({ Bucket: location.bucket, Key: manifestKey(location) }),
      options.signal ? { abortSignal: options.signal } : {},
    )
    text = await answer.Body!.transformToString('utf-8')
  } catch (error) {
    if (isNoSuchKey(error)) {
      throw new SnapshotError(
        'not-published',
        `nothing has been published at ${location.url}: there is no ${manifestKey(location)} in bucket "${location.bucket}" (publish with: npx allmenning datasets publish ${location.url})`,
        { cause: error },
      )
    }
    throw snapshotErrorFrom(error, location, `reading the manifest at ${location.url}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new SnapshotError('bad-manifest', `the manifest at ${location.url} is not JSON`)
  }
  return checkSnapshotManifest(parsed, location)
}
