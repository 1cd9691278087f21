/** Where snapshots are published: a bucket and a key prefix, from an `s3://bucket/prefix` URL. */
export interface SnapshotLocation {
  /** The URL as given, for messages. */
  url: string
  bucket: string
  /** The key prefix, without a trailing slash; `''` for the bucket's root. */
  prefix: string
}

/** A URL that is not `s3://bucket/prefix`. */
export class SnapshotUrlError extends Error {
  override name = 'SnapshotUrlError'
}

// S3's rule for bucket names (3-63 characters, lowercase letters, digits, dots and hyphens,
// starting and ending with a letter or digit); R2, MinIO and GCS follow it too.
const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

/**
 * Reads an `s3://bucket/prefix` URL: the bucket, and the folder-like key prefix under which
 * `manifest.json` and `snapshots/` live. The prefix may be empty or nested (`s3://b/a/b`).
 *
 * @example
 * parseSnapshotUrl('s3://allmenning-data/prod') // { url: 's3://allmenning-data/prod', bucket: 'allmenning-data', prefix: 'prod' }
 */
export function parseSnapshotUrl(url: string): SnapshotLocation {
  const rule = 'a snapshot location is s3://<bucket>/<prefix>, e.g. s3://allmenning-data/prod'
  const match = /^s3:\/\/([^/?#]*)(?:\/([^?#]*))?$/.exec(url.trim())
  if (!match) throw new SnapshotUrlError(`"${url}" is not a snapshot location: ${rule}`)
  const bucket = match[1]!
  if (!bucketName.test(bucket)) {
    throw new SnapshotUrlError(
      `"${url}" names no valid bucket ("${bucket}"): a bucket name is 3 to 63 lowercase letters, digits, dots and hyphens; ${rule}`,
    )
  }
  const prefix = (match[2] ?? '').replace(/\/+$/, '')
  if (prefix !== '' && prefix.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new SnapshotUrlError(`"${url}" has an empty, "." or ".." part in its prefix; ${rule}`)
  }
  return { url: url.trim(), bucket, prefix }
}

/** The key of an object under the location's prefix. */
export function snapshotKey(location: SnapshotLocation, name: string): string {
  return location.prefix ? `${location.prefix}/${name}` : name
}

/** The manifest's key: `<prefix>/manifest.json`. */
export const manifestKey = (location: SnapshotLocation) => snapshotKey(location, 'manifest.json')

/** Where the snapshot objects live: `<prefix>/snapshots/`. */
export const snapshotsFolder = (location: SnapshotLocation) => snapshotKey(location, 'snapshots/')
