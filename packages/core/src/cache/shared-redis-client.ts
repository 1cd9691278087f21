import type { RedisConnectionFlags, RedisErrorEvents } from './redis-outage.js'

/**
 * The structural part of a node-redis client (`createClient()` from `redis`, `@redis/client`
 * or `@keyv/redis`, v4 and later) that the gateway uses for state it shares across instances:
 * rate-limit counts and the shared single flight. One client can serve both, and the Keyv
 * store too.
 *
 * The gateway listens to the client's `error` event (reported to `onError` as `shared-state`,
 * each distinct error once per outage), so a lost connection never ends the process, and it
 * sends nothing while `isReady` is false: the client's reconnect strategy must keep trying for
 * the gateway to use Redis again when it returns.
 *
 * @example
 * import { createClient } from '@keyv/redis'
 * const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
 * redis.on('error', (error) => console.error('Redis:', error.message))
 * redis.connect().catch(() => undefined)
 * createGateway({ sources, rateLimit: { redis }, sharedFlight: { redis } })
 */
export interface SharedRedisClient extends RedisConnectionFlags, RedisErrorEvents {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  set(key: string, value: string, options: { NX: true; PX: number }): Promise<unknown>
  get(key: string): Promise<string | null>
  del(key: string | string[]): Promise<unknown>
}
