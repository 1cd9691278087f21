// One target of the composition benchmark, in its own process: the Express example shape with
// Statnett and the stand-ins, warmed so that every measured request is a cache hit of the
// route it names (`operation`, `search` or `bundle`).
import express from 'express'
import Keyv from 'keyv'
import { createGateway } from '@allmenning/core'
import { statnett } from '@allmenning/sources'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { answerCpuQuestions } from './cpu-question.js'
import { placeSource, searchSource } from './stand-in-sources.js'

const [, upstream, path] = process.argv.slice(2)
const gateway = createGateway({
  sources: [statnett(), placeSource(), searchSource('alpha'), searchSource('beta')],
  upstreams: { statnett: { baseUrl: upstream } },
  cache: new Keyv(),
})
const request = { method: 'GET', path: path.split('?')[0], query: path.split('?')[1] ?? '', headers: {} }
const first = await gateway.handle(request)
if (first.status !== 200) throw new Error(`warm-up of ${path} answered ${first.status}: ${first.body}`)
const warm = await gateway.handle(request)
if (!warm.headers['cache-status']?.includes('hit')) throw new Error(`${path}: the second answer should be a cache hit`)

const app = express()
app.disable('x-powered-by')
app.use(createExpressMiddleware(gateway))
const server = app.listen(0, '127.0.0.1', () =>
  process.send({ port: server.address().port, bytes: Buffer.byteLength(warm.body) }),
)
process.on('SIGINT', () => process.exit(0))
answerCpuQuestions()
