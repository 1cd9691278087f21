// One benchmark target, run in a child process so the load generator does not share its
// event loop: `gateway` serves a cached operation through the Express adapter, `bare`
// sends the same bytes and headers from a plain Express route.
import express from 'express'
import Keyv from 'keyv'
import { createGateway } from '@allmenning/core'
import { statnett } from '@allmenning/core/sources'
import { createExpressMiddleware } from '@allmenning/adapter-express'

const [kind, upstream, path] = process.argv.slice(2)
const gateway = createGateway({ sources: [statnett({ baseUrl: upstream })], cache: new Keyv() })
const warm = await gateway.handle({ method: 'GET', path: path.split('?')[0], query: path.split('?')[1] ?? '', headers: {} })
if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}: ${warm.body}`)

const app = express()
app.disable('x-powered-by')
if (kind === 'gateway') {
  app.use(createExpressMiddleware(gateway))
} else if (kind === 'stub') {
  app.use(createExpressMiddleware({ owns: () => true, handle: async () => warm }))
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
