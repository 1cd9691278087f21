import Keyv from 'keyv'
import { describe, expect, it } from 'vitest'
import { cacheEntry } from '../pipeline/cached-answer.js'
import { createBestEffortCache } from './best-effort-cache.js'

/** A Keyv store shaped like @keyv/redis's: a Map, and the node-redis client it talks through. */
function redisLikeStore() {
  const calls: string[] = []
  const map = new Map<string, unknown>()
  const client = { isOpen: true, isReady: true }
  const store = {
    client,
    get: async (key: string) => (calls.push('get'), map.get(key)),
    set: async (key: string, value: unknown) => (calls.push('set'), map.set(key, value), true),
    delete: async (key: string) => map.delete(key),
    clear: async () => map.clear(),
  }
  return { store, client, calls }
}

const entry = cacheEntry({ data: 'kept' }, 60)

describe('createBestEffortCache over a Redis store', () => {
  it('does not ask a store whose client is reconnecting, says so once, and asks it again once it is back', async () => {
    const { store, client, calls } = redisLikeStore()
    const errors: unknown[] = []
    const cache = createBestEffortCache(new Keyv({ store }), {
      timeoutMs: 200,
      maxEntryBytes: 1 << 20,
      onError: (e) => errors.push(e),
    })
    await cache.set('k', entry, 60)
    expect(await cache.get('k')).toEqual(entry)
    client.isReady = false
    calls.length = 0
    for (let i = 0; i < 3; i++) {
      await cache.set('k', entry, 60)
      expect(await cache.get('k')).toBeUndefined()
    }
    expect(calls).toEqual([])
    expect(errors.map(String)).toEqual([
      'RedisNotConnectedError: Redis is not connected: the cache is skipped until it is back',
    ])
    client.isReady = true
    expect(await cache.get('k')).toEqual(entry)
  })

  it('leaves a store whose client is not opened yet to connect on first use', async () => {
    const { store, client, calls } = redisLikeStore()
    client.isOpen = false
    client.isReady = false
    const cache = createBestEffortCache(new Keyv({ store }), {
      timeoutMs: 200,
      maxEntryBytes: 1 << 20,
      onError: () => undefined,
    })
    await cache.get('k')
    expect(calls).toEqual(['get'])
  })
})
