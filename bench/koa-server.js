// One benchmark target, run in a child process so the load generator does not share its
// event loop: `gateway` serves a cached operation through the Koa adapter, `bare` sends the
// same bytes and headers from a plain Koa middleware (ctx.status, ctx.set, ctx.body).
import Koa from 'koa'
import Keyv from 'keyv'
import { createGateway } from '@allmenning/core'
import { statnett } from '@allmenning/sources'
import { createKoaMiddleware } from '@allmenning/adapter-koa'
import { answerCpuQuestions } from './cpu-question.js'

const [kind, upstream, path] = process.argv.slice(2)
const route = path.split('?')[0]
const gateway = createGateway({
  sources: [statnett()],
  upstreams: { statnett: { baseUrl: upstream } },
  cache: new Keyv(),
})
// Warm the cache, then take a hit: the bare route replays exactly the bytes and headers of a hit.
const request = { method: 'GET', path: route, query: path.split('?')[1] ?? '', headers: {} }
const first = await gateway.handle(request)
if (first.status !== 200) throw new Error(`warm-up answered ${first.status}: ${first.body}`)
const warm = await gateway.handle(request)
if (!warm.headers['cache-status']?.includes('hit')) throw new Error('the second answer should be a cache hit')

const app = new Koa()
if (kind === 'gateway') {
  app.use(createKoaMiddleware(gateway))
} else {
  // No router: the least a Koa app can do to answer this path.
  app.use((ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== route) return next()
    ctx.status = 200
    ctx.set(warm.headers)
    ctx.body = warm.body
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
