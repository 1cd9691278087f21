import { describe, expect, it } from 'vitest'
import { createLruMap } from './lru-map.js'

describe('createLruMap', () => {
  it('forgets the least recently used entry beyond its size', () => {
    const map = createLruMap<string, number>(2)
    map.set('a', 1)
    map.set('b', 2)
    expect(map.get('a')).toBe(1)
    map.set('c', 3)
    expect(map.get('b')).toBeUndefined()
    expect(map.get('a')).toBe(1)
    expect(map.get('c')).toBe(3)
    expect(map.size).toBe(2)
  })

  it('keeps order right when the newest key is read again and others are added', () => {
    const map = createLruMap<string, number>(2)
    map.set('a', 1)
    map.set('b', 2)
    map.get('b')
    map.get('a')
    map.get('a')
    map.set('c', 3)
    expect(map.get('b')).toBeUndefined()
    expect(map.get('a')).toBe(1)
    map.delete('a')
    map.set('d', 4)
    expect(map.get('c')).toBe(3)
    expect(map.get('d')).toBe(4)
  })

  it('replaces a value without growing', () => {
    const map = createLruMap<string, number>(2)
    map.set('a', 1)
    map.set('a', 2)
    expect(map.size).toBe(1)
    expect(map.get('a')).toBe(2)
  })

  it('holds nothing when sized 0', () => {
    const map = createLruMap<string, number>(0)
    map.set('a', 1)
    expect(map.get('a')).toBeUndefined()
  })
})
