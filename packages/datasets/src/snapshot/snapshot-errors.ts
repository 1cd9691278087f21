import type { SnapshotLocation } from './snapshot-location.js'

/** Why a snapshot could not be published, read or downloaded. */
export type SnapshotErrorCode =
  /** The store refused the credentials or the access (403, an unknown key, a wrong secret). */
  | 'access-denied'
  /** No manifest at the location: nothing has been published there. */
  | 'not-published'
  /** The bucket does not exist. */
  | 'no-bucket'
  /** The manifest is not one this version reads. */
  | 'bad-manifest'
  /** The snapshot's bytes are not those the manifest names (size or sha256), or do not decompress. */
  | 'corrupt'
  /** The snapshot object the manifest names is gone (pruned by a newer publish, or deleted). */
  | 'missing-object'
  /** Any other failure of the store or the network. */
  | 'store-failed'

/**
 * A snapshot operation that failed, with a `code` to act on and a message naming the location.
 *
 * @example
 * const location = parseSnapshotUrl('s3://my-bucket/prod')
 * const client = createSnapshotClient()
 * try { await readSnapshotManifest(location, client) } catch (error) {
 *   if (error instanceof SnapshotError && error.code === 'not-published') console.log('nothing published yet')
 * }
 */
export class SnapshotError extends Error {
  override name = 'SnapshotError'
  constructor(
    readonly code: SnapshotErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

interface SdkError {
  name?: string
  Code?: string
  message?: string
  $metadata?: { httpStatusCode?: number }
}

const deniedNames = new Set([
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidToken',
  'ExpiredToken',
  'TokenRefreshRequired',
  'CredentialsProviderError',
  'Forbidden',
])

/**
 * Turns an AWS SDK error into a {@link SnapshotError} naming the bucket and what was being
 * done (`doing` names the location); an abort passes through unchanged so callers can tell it apart.
 */
export function snapshotErrorFrom(error: unknown, location: SnapshotLocation, doing: string): Error {
  if (error instanceof SnapshotError) return error
  const sdk = (error ?? {}) as SdkError
  if (sdk.name === 'AbortError' || (error instanceof Error && error.name === 'AbortError')) return error as Error
  const name = sdk.name && sdk.name !== 'Error' ? sdk.name : (sdk.Code ?? '')
  const status = sdk.$metadata?.httpStatusCode
  const detail = sdk.message ? `: ${sdk.message}` : ''
  if (name === 'CredentialsProviderError') {
    return new SnapshotError(
      'access-denied',
      `${doing} failed: no credentials were found for bucket "${location.bucket}"${detail}. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run where a role gives them`,
      { cause: error },
    )
  }
  if (deniedNames.has(name) || status === 403 || status === 401) {
    return new SnapshotError(
      'access-denied',
      `${doing} failed: the store refused access to bucket "${location.bucket}" (${name || status})${detail}. Check the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE) and that they may use this bucket`,
      { cause: error },
    )
  }
  if (name === 'NoSuchBucket')
    return new SnapshotError(
      'no-bucket',
      `${doing} failed: bucket "${location.bucket}" does not exist (${location.url})`,
      { cause: error },
    )
  if (/Region is missing/i.test(sdk.message ?? '')) {
    return new SnapshotError(
      'store-failed',
      `${doing} failed: no region is set; set AWS_REGION (any region works for most S3-compatible stores; R2 takes "auto")`,
      { cause: error },
    )
  }
  return new SnapshotError(
    'store-failed',
    `${doing} failed${name ? ` (${name}${status ? ` ${status}` : ''})` : ''}${detail}`,
    { cause: error },
  )
}

/** Whether an SDK error says the object is not there. */
export function isNoSuchKey(error: unknown): boolean {
  const sdk = (error ?? {}) as SdkError
  return (
    sdk.name === 'NoSuchKey' ||
    sdk.Code === 'NoSuchKey' ||
    (sdk.name === 'NotFound' && sdk.$metadata?.httpStatusCode === 404)
  )
}
