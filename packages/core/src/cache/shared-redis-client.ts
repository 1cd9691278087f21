/**
 * The structural part of a node-redis client (`createClient()` from `redis` or
 * `@redis/client`, v4 and later) that the gateway uses for state it shares across instances:
 * rate-limit counts and the shared single flight. One connected client can serve both.
 *
 * @example
 * import { createClient } from 'redis'
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect()
 * createGateway({ sources, rateLimit: { redis }, sharedFlight: { redis } })
 */
export interface SharedRedisClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  set(key: string, value: string, options: { NX: true; PX: number }): Promise<unknown>
  get(key: string): Promise<string | null>
  del(key: string | string[]): Promise<unknown>
}
