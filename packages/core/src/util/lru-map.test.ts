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

  it('keeps the summed weight within its budget, forgetting the oldest first', () => {
    const map = createLruMap<string, string>(10, { maxWeight: 10, weigh: (value) => value.length })
    map.set('a', 'xxxx')
    map.set('b', 'xxxx')
    map.set('c', 'xxxx')
    expect(map.get('a')).toBeUndefined()
    expect(map.weight).toBe(8)
    map.set('b', 'x')
    expect(map.weight).toBe(5)
    map.set('big', 'x'.repeat(11))
    expect(map.get('big')).toBeUndefined()
    expect(map.size).toBe(2)
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

  it('peeks without reordering, and clears everything', () => {
    const map = createLruMap<string, number>(2)
    map.set('a', 1)
    map.set('b', 2)
    expect(map.peek('a')).toBe(1)
    map.set('c', 3) // 'a' is still the least recently used
    expect(map.peek('a')).toBeUndefined()
    map.clear()
    expect([map.size, map.weight, map.get('b')]).toEqual([0, 0, undefined])
    map.set('d', 4)
    expect(map.get('d')).toBe(4)
  })
})
