import type { SharedRedisClient } from './shared-redis-client.js'

/** The options `connectSharedRedis` gives node-redis's `createClient`. */
export interface SharedRedisClientSetup {
  url: string
  disableOfflineQueue: boolean
  socket: { connectTimeout: number; reconnectStrategy: (retries: number) => number }
}

/** What `connectSharedRedis` needs of the client `createClient` makes: the gateway's part, `connect` and an `error` event. */
export interface ConnectableRedisClient extends SharedRedisClient {
  connect(): Promise<unknown>
  on(event: 'error', listener: (error: Error) => void): unknown
}

/**
 * A node-redis client set up to share a gateway's cache, rate limits and single flight, and
 * never to end the process: it reconnects for ever (after 0.1, 0.2, 0.4 ... and then every
 * 2 s), fails a command at once while Redis is away instead of queueing it in memory, logs its
 * errors (node-redis throws an unheard `error` event, which would end the process), and
 * connects without being awaited, so the gateway serves without Redis until it is reachable.
 * The core imports no Redis client: pass the `createClient` of `@keyv/redis` (or `redis`).
 *
 * @example
 * import { createClient, createKeyv } from '@keyv/redis'
 * const redis = connectSharedRedis(createClient, process.env.REDIS_URL!)
 * createGateway({ sources, cache: createKeyv(redis), rateLimit: { redis }, sharedFlight: { redis } })
 */
export function connectSharedRedis<Client extends ConnectableRedisClient>(
  createClient: (setup: SharedRedisClientSetup) => Client,
  url: string,
  log: (message: string) => void = (message) => console.error(message),
): Client {
  const redis = createClient({
    url,
    // While Redis is away, a command fails at once instead of waiting in memory for its return.
    disableOfflineQueue: true,
    // A strategy that gave up would leave a closed client the gateway never reopens.
    socket: { connectTimeout: 1000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
  })
  redis.on('error', (error) => log(`Redis: ${error.message}`))
  // Not awaited: the gateway serves without Redis until it is reachable.
  redis.connect().catch(() => undefined)
  return redis
}
