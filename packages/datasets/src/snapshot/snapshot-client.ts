import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3'
import { s3Sdk } from './aws-sdk.js'

/** Options of {@link createSnapshotClient}; each falls back to the environment, then the SDK's defaults. */
export interface SnapshotClientOptions {
  /**
   * The store's endpoint, for stores other than AWS S3 (MinIO, Cloudflare R2, Google Cloud
   * Storage). Default: `$ALLMENNING_SNAPSHOT_ENDPOINT`, else the SDK's own `$AWS_ENDPOINT_URL_S3`
   * (read by the SDK), else AWS S3.
   */
  endpoint?: string
  /** Address buckets as `<endpoint>/<bucket>` rather than `<bucket>.<endpoint>` (MinIO needs it). Default: `$ALLMENNING_SNAPSHOT_PATH_STYLE` is `1` or `true`. */
  forcePathStyle?: boolean
  /** Default: `$AWS_REGION` (read by the SDK) or `$AWS_DEFAULT_REGION`, else the profile's; `us-east-1` when an endpoint is given and none is set. */
  region?: string
  /** Default: the SDK's credential chain (environment, profile, SSO, container and instance roles, Lambda's role). */
  credentials?: S3ClientConfig['credentials']
  /** Where the variables above are read; default `process.env`. */
  env?: Record<string, string | undefined>
}

/**
 * An S3 client for snapshots: the AWS SDK's, with its standard credential chain, and the
 * endpoint, path style and region from options or the environment. With an endpoint (a store
 * other than AWS S3) it computes request checksums only where S3 requires them, unless
 * `$AWS_REQUEST_CHECKSUM_CALCULATION` says otherwise: several S3-compatible stores refuse or
 * mangle the aws-chunked checksum trailers the SDK sends by default, and every snapshot carries
 * its own sha256, checked on download.
 *
 * @example
 * const client = createSnapshotClient({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true })
 */
export function createSnapshotClient(options: SnapshotClientOptions = {}): S3Client {
  const env = options.env ?? process.env
  const endpoint = options.endpoint ?? (env.ALLMENNING_SNAPSHOT_ENDPOINT || undefined)
  const thirdParty = endpoint !== undefined || Boolean(env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL)
  const pathStyle = options.forcePathStyle ?? /^(1|true|yes)$/i.test(env.ALLMENNING_SNAPSHOT_PATH_STYLE ?? '')
  const region = options.region ?? (env.AWS_REGION || env.AWS_DEFAULT_REGION || (thirdParty ? 'us-east-1' : undefined))
  const config: S3ClientConfig = {
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    ...(pathStyle ? { forcePathStyle: true } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // A bucket in another region than the one configured answers with a redirect; follow it.
    followRegionRedirects: true,
    // A store that stops answering mid-transfer fails the transfer instead of hanging it.
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 60_000 },
  }
  if (thirdParty && !env.AWS_REQUEST_CHECKSUM_CALCULATION) config.requestChecksumCalculation = 'WHEN_REQUIRED'
  if (thirdParty && !env.AWS_RESPONSE_CHECKSUM_VALIDATION) config.responseChecksumValidation = 'WHEN_REQUIRED'
  return new (s3Sdk().S3Client)(config)
}
