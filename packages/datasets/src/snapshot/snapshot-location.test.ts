import { describe, expect, it } from 'vitest'
import { parseSnapshotUrl } from '@allmenning/datasets'

describe('parseSnapshotUrl', () => {
  it('reads the bucket and the prefix', () => {
    expect(parseSnapshotUrl('s3://allmenning-data')).toEqual({
      url: 's3://allmenning-data',
      bucket: 'allmenning-data',
      prefix: '',
    })
    expect(parseSnapshotUrl('s3://allmenning-data/a/b/')).toEqual({
      url: 's3://allmenning-data/a/b/',
      bucket: 'allmenning-data',
      prefix: 'a/b',
    })
  })

  it.each(['https://bucket/x', 's3://', 's3://Upper/x', 's3://b/x', 's3://bucket//x', 's3://bucket/a/../b'])(
    'refuses %s, saying the rule',
    (url) => {
      expect(() => parseSnapshotUrl(url)).toThrow(/s3:\/\/<bucket>\/<prefix>/)
    },
  )
})
