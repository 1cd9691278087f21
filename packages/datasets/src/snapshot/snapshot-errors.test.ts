import { describe, expect, it } from 'vitest'
import { parseSnapshotUrl, SnapshotError } from '@allmenning/datasets'
import { snapshotErrorFrom } from './snapshot-errors.js'

const location = parseSnapshotUrl('s3://allmenning-data/prod')

// Shaped as the AWS SDK throws them (name, $metadata.httpStatusCode); the refusals a real store
// sends that the test server does not (it checks no SigV4 signature).
const sdkError = (name: string, status: number) => Object.assign(new Error(`${name} from the store`), { name, $metadata: { httpStatusCode: status } })

describe('snapshotErrorFrom', () => {
  it.each([
    ['SignatureDoesNotMatch', 403],
    ['AccessDenied', 403],
    ['ExpiredToken', 400],
    ['Forbidden', 403],
  ])('turns %s into access-denied naming the bucket', (name, status) => {
    const error = snapshotErrorFrom(sdkError(name, status), location, 'reading the manifest')
    expect(error).toBeInstanceOf(SnapshotError)
    expect(error).toMatchObject({ code: 'access-denied', message: expect.stringContaining(`refused access to bucket "allmenning-data" (${name})`) })
  })

  it('keeps other failures apart, naming the location, and lets an abort through', () => {
    expect(snapshotErrorFrom(sdkError('InternalError', 500), location, 'reading the manifest')).toMatchObject({
      code: 'store-failed',
      message: 'reading the manifest failed at s3://allmenning-data/prod (InternalError 500): InternalError from the store',
    })
    const abort = Object.assign(new Error('stopped'), { name: 'AbortError' })
    expect(snapshotErrorFrom(abort, location, 'x')).toBe(abort)
  })
})

describe('parseSnapshotUrl', () => {
  it('reads the bucket and the prefix', () => {
    expect(parseSnapshotUrl('s3://allmenning-data')).toEqual({ url: 's3://allmenning-data', bucket: 'allmenning-data', prefix: '' })
    expect(parseSnapshotUrl('s3://allmenning-data/a/b/')).toEqual({ url: 's3://allmenning-data/a/b/', bucket: 'allmenning-data', prefix: 'a/b' })
  })

  it.each(['https://bucket/x', 's3://', 's3://Upper/x', 's3://b/x', 's3://bucket//x', 's3://bucket/a/../b'])('refuses %s, saying the rule', (url) => {
    expect(() => parseSnapshotUrl(url)).toThrow(/s3:\/\/<bucket>\/<prefix>/)
  })
})
