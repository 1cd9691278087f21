import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createKeyv } from '@keyv/redis'
import { createClient } from '@redis/client'
import express from 'express'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { createGateway } from '@allmenning/core'
import { answerServerRefusals, closeGracefully } from '@allmenning/core/adapter'
import { statnett } from '@allmenning/sources'

// One gateway instance as a deployment runs it: a process of its own, sharing one Redis with
// the other instances for its cache, its rate-limit counts and its single flight. The Redis
// suite starts several of these. Every onError report is printed as a JSON line.
const env = process.env
const report = (kind: string, error: unknown) =>
  console.log(JSON.stringify({ onError: kind, message: error instanceof Error ? error.message : String(error) }))

// No 'error' listener of its own and the offline queue left on, as a deployment may well have
// it: the gateway listens to the client it is given and sends nothing while it is not
// connected, so losing Redis neither ends this process nor makes its requests wait.
const redis = createClient({
  url: env.REDIS_URL,
  socket: { connectTimeout: 500, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 1000) },
})
await redis.connect()

const gateway = createGateway({
  sources: [statnett()],
  upstreams: { statnett: { baseUrl: env.STATNETT_URL!, timeoutMs: 5000 } },
  cache: createKeyv(env.REDIS_URL!),
  sharedFlight: { redis, lockMs: Number(env.FLIGHT_LOCK_MS) || 2000 },
  // Only requests naming a client are counted, so each test keeps its own quota.
  rateLimit: {
    redis,
    quota: { requests: Number(env.RATE_LIMIT) || 10, windowSeconds: 60 },
    clientKey: (request) => String(request.headers['x-client'] ?? '') || undefined,
  },
  // The suite counts upstream calls per cache key across processes (the single flight, the
  // shared store); a process's memo of fresh upstream answers would answer another `limit`
  // without a call of its own, so it is off here. Its own tests are in the core.
  upstreamAnswerBytes: 0,
  onError: (error, kind) => report(kind, error),
})

const app = express()
app.use(createExpressMiddleware(gateway))
const server = createServer(app)
answerServerRefusals(server, gateway)
server.listen(0, '127.0.0.1', () =>
  console.log(`gateway on http://localhost:${(server.address() as AddressInfo).port}/`),
)
process.once('SIGTERM', () => void closeGracefully(server).then(() => process.exit(0)))
