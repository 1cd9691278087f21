import { describe, expect, it } from 'vitest'
import { normalizeMountPath, stripMountPath } from './mount-path.js'

describe('normalizeMountPath', () => {
  it.each([
    [undefined, ''],
    ['', ''],
    ['/', ''],
    ['data', '/data'],
    ['/data/', '/data'],
    ['/a/b//', '/a/b'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeMountPath(input)).toBe(expected)
  })
})

describe('stripMountPath', () => {
  it('keeps the whole path at the root', () => {
    expect(stripMountPath('/api/v1', '')).toBe('/api/v1')
  })
  it('strips a prefix per segment', () => {
    expect(stripMountPath('/data/api/v1', '/data')).toBe('/api/v1')
    expect(stripMountPath('/data', '/data')).toBe('/')
    expect(stripMountPath('/data/', '/data')).toBe('/')
  })
  it('refuses a path that only shares characters with the prefix', () => {
    expect(stripMountPath('/database/api', '/data')).toBeUndefined()
    expect(stripMountPath('/other', '/data')).toBeUndefined()
  })
})
