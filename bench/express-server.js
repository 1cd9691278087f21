// One benchmark target, run in a child process so the load generator does not share its
// event loop: `gateway` serves a cached operation through the Express adapter, `bare`
// sends the same bytes and headers from a plain Express route.
import express from 'express'
import Keyv from 'keyv'
import { createGateway } from '@allmenning/core'
import { statnett } from '@allmenning/sources'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { answerCpuQuestions } from './cpu-question.js'

const [kind, upstream, path] = process.argv.slice(2)
const gateway = createGateway({
  sources: [statnett()],
  upstreams: { statnett: { baseUrl: upstream } },
  cache: new Keyv(),
})
// Warm the cache, then take a hit: the bare route replays exactly the bytes and headers of a hit.
const request = { method: 'GET', path: path.split('?')[0], query: path.split('?')[1] ?? '', headers: {} }
const first = await gateway.handle(request)
if (first.status !== 200) throw new Error(`warm-up answered ${first.status}: ${first.body}`)
const warm = await gateway.handle(request)
if (!warm.headers['cache-status']?.includes('hit')) throw new Error('the second answer should be a cache hit')

const app = express()
app.disable('x-powered-by')
if (kind === 'gateway') {
  app.use(createExpressMiddleware(gateway))
} else {
  app.get(path.split('?')[0], (_req, res) => {
    res.status(200).set(warm.headers).end(warm.body)
  })
}
const server = app.listen(0, '127.0.0.1', () => {
  process.send({ port: server.address().port, bytes: Buffer.byteLength(warm.body) })
})
process.on('SIGINT', () => process.exit(0))
process.on('message', (message) => {
  if (message === 'rss') process.send({ rss: process.memoryUsage().rss })
})
answerCpuQuestions()
