import { describe, expect, it } from 'vitest'
import { parseSnapshotUrl, SnapshotError } from '@allmenning/datasets'
import { snapshotErrorFrom } from './snapshot-errors.js'

const location = parseSnapshotUrl('s3://allmenning-data/prod')

// Shaped as the AWS SDK throws them (name, $metadata.httpStatusCode); the refusals a real store
// sends that the test server does not (it checks no SigV4 signature).
const sdkError = (name: string, status: number) =>
  Object.assign(new Error(`${name} from the store`), { name, $metadata: { httpStatusCode: status } })

describe('snapshotErrorFrom', () => {
  it.each([
    ['SignatureDoesNotMatch', 403],
    ['AccessDenied', 403],
    ['ExpiredToken', 400],
    ['Forbidden', 403],
  ])('turns %s into access-denied naming the bucket', (name, status) => {
    const error = snapshotErrorFrom(sdkError(name, status), location, 'reading the manifest')
    expect(error).toBeInstanceOf(SnapshotError)
    expect(error).toMatchObject({
      code: 'access-denied',
      message: expect.stringContaining(`refused access to bucket "allmenning-data" (${name})`),
    })
  })

  it('says when no credentials were found at all, naming the bucket', () => {
    const missing = Object.assign(new Error('Could not load credentials from any providers'), {
      name: 'CredentialsProviderError',
    })
    expect(snapshotErrorFrom(missing, location, 'reading the manifest at s3://allmenning-data/prod')).toMatchObject({
      code: 'access-denied',
      message: expect.stringContaining(
        'failed: no credentials were found for bucket "allmenning-data": Could not load credentials from any providers. Set AWS_ACCESS_KEY_ID',
      ),
    })
  })

  it('keeps other failures apart, naming the location, and lets an abort through', () => {
    expect(snapshotErrorFrom(sdkError('InternalError', 500), location, 'reading the manifest')).toMatchObject({
      code: 'store-failed',
      message: 'reading the manifest failed (InternalError 500): InternalError from the store',
    })
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })
    expect(snapshotErrorFrom(refused, location, 'reading the manifest at s3://allmenning-data/prod').message).toBe(
      'reading the manifest at s3://allmenning-data/prod failed: connect ECONNREFUSED 127.0.0.1:9',
    )
    const abort = Object.assign(new Error('stopped'), { name: 'AbortError' })
    expect(snapshotErrorFrom(abort, location, 'x')).toBe(abort)
  })
})
