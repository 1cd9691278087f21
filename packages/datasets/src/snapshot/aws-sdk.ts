import { createRequire } from 'node:module'
import type * as ClientS3 from '@aws-sdk/client-s3'
import type * as LibStorage from '@aws-sdk/lib-storage'

const require = createRequire(import.meta.url)

/**
 * The AWS SDK's S3 client, loaded on first use rather than when `@allmenning/datasets` is
 * imported: a gateway that reads its store and never touches a snapshot does not pay the
 * SDK's start-up (a few hundred milliseconds on a busy machine) or its memory. Its packages
 * have no `exports` map, so `import` and `require` give the same module.
 *
 * @example
 * const { GetObjectCommand } = s3Sdk()
 */
export const s3Sdk = (): typeof ClientS3 => require('@aws-sdk/client-s3') as typeof ClientS3

/** The SDK's multipart upload helper, loaded on first use like {@link s3Sdk}. */
export const storageSdk = (): typeof LibStorage => require('@aws-sdk/lib-storage') as typeof LibStorage
