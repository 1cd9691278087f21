import Keyv from 'keyv'
import { describe, expect, it } from 'vitest'
import { createMemoryCacheStore } from './memory-cache-store.js'

describe('createMemoryCacheStore', () => {
  it('holds no more than maxBytes through Keyv, the least recently used out first', async () => {
    const store = createMemoryCacheStore({ maxBytes: 64 * 1024 })
    const keyv = new Keyv({ store })
    const body = 'x'.repeat(1000)
    for (let i = 0; i < 1000; i++) await keyv.set(`answer-${i}`, { body, i }, 60_000)
    // 1000 answers of ~2 KB each were written; about 30 fit.
    expect(store.bytes).toBeLessThanOrEqual(64 * 1024)
    expect(store.size).toBeGreaterThan(20)
    expect(store.size).toBeLessThan(40)
    expect(await keyv.get('answer-0')).toBeUndefined()
    expect(await keyv.get('answer-999')).toEqual({ body, i: 999 })
  })

  it('keeps what is read again over what is not', async () => {
    const store = createMemoryCacheStore({ maxEntries: 3 })
    const keyv = new Keyv({ store })
    await keyv.set('a', 1)
    await keyv.set('b', 2)
    await keyv.set('c', 3)
    expect(await keyv.get('a')).toBe(1)
    await keyv.set('d', 4)
    expect(await keyv.get('b')).toBeUndefined()
    expect(await keyv.get('a')).toBe(1)
    expect(store.size).toBe(3)
  })

  it('deletes, clears and expires as Keyv expects of a store', async () => {
    const store = createMemoryCacheStore()
    const keyv = new Keyv({ store })
    await keyv.set('kept', 'yes')
    await keyv.set('brief', 'gone soon', 1)
    expect(await keyv.delete('kept')).toBe(true)
    expect(await keyv.get('kept')).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(await keyv.get('brief')).toBeUndefined()
    await keyv.set('again', 1)
    await keyv.clear()
    expect(store.size).toBe(0)
    expect(store.bytes).toBe(0)
  })

  it('weighs keys as well as values, so many small entries under long keys are bounded too', () => {
    const store = createMemoryCacheStore({ maxBytes: 10_000 })
    for (let i = 0; i < 1000; i++) store.set(`${'k'.repeat(500)}${i}`, '1')
    expect(store.bytes).toBeLessThanOrEqual(10_000)
    expect(store.size).toBeLessThan(10)
  })

  it('refuses limits that could hold nothing', () => {
    expect(() => createMemoryCacheStore({ maxBytes: 0 })).toThrow(/maxBytes and maxEntries must be above 0/)
    expect(() => createMemoryCacheStore({ maxEntries: -1 })).toThrow(RangeError)
  })
})
