// One MCP benchmark target, run in a child process so the load generator does not share its
// event loop: one gateway with MCP on (@allmenning/mcp) behind Express or Koa, serving both the warm REST GET
// and the warm tools/call that stands for the same GET (so the same cache entry). Beside it,
// /bare/get and /bare/mcp replay those two answers' exact bytes from plain framework routes
// (the POST reading its body as the adapters do): the floor the framework itself sets.
import express from 'express'
import Koa from 'koa'
import Keyv from 'keyv'
import { createGateway } from '@allmenning/core'
import { readRequestBody } from '@allmenning/core/adapter'
import { mcpServers } from '@allmenning/mcp'
import { statnett } from '@allmenning/sources'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { createKoaMiddleware } from '@allmenning/adapter-koa'

const [framework, upstream, path, mcpBody] = process.argv.slice(2)
const gateway = createGateway({ sources: [statnett()], upstreams: { statnett: { baseUrl: upstream } }, cache: new Keyv(), extensions: [mcpServers()] })
const first = await gateway.handle({ method: 'GET', path: path.split('?')[0], query: path.split('?')[1] ?? '', headers: {} })
if (first.status !== 200) throw new Error(`warm-up answered ${first.status}: ${first.body}`)
// The tool call must hit the entry the GET stored, or the comparison measures an upstream call.
const call = await gateway.handle({
  method: 'POST',
  path: '/statnett/mcp',
  query: '',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  readBody: () => Promise.resolve(mcpBody),
})
const result = JSON.parse(call.body).result
if (call.status !== 200 || result.isError) throw new Error(`the warm tool call failed: ${call.body.slice(0, 200)}`)
if (JSON.stringify(result.structuredContent) !== first.body) throw new Error('the tool call should carry the very envelope the GET stored')

const warmGet = await gateway.handle({ method: 'GET', path: path.split('?')[0], query: path.split('?')[1] ?? '', headers: {} })

let server
if (framework === 'express') {
  const app = express()
  app.disable('x-powered-by')
  app.get('/bare/get', (_req, res) => void res.status(200).set(warmGet.headers).end(warmGet.body))
  app.post('/bare/mcp', async (req, res) => {
    await readRequestBody(req)
    res.status(200).set(call.headers).end(call.body)
  })
  app.use(createExpressMiddleware(gateway))
  server = app.listen(0, '127.0.0.1', ready)
} else {
  const app = new Koa()
  app.use(async (ctx, next) => {
    if (ctx.path !== '/bare/get' && ctx.path !== '/bare/mcp') return next()
    const answer = ctx.path === '/bare/get' ? warmGet : call
    if (ctx.method === 'POST') await readRequestBody(ctx.req)
    ctx.status = 200
    ctx.set(answer.headers)
    ctx.body = answer.body
  })
  app.use(createKoaMiddleware(gateway))
  server = app.listen(0, '127.0.0.1', ready)
}
function ready() {
  process.send({ port: server.address().port, restBytes: Buffer.byteLength(first.body), mcpBytes: Buffer.byteLength(call.body) })
}
process.on('SIGINT', () => process.exit(0))
// CPU time (user + system, µs) this process has used: what a request costs the server, whatever else the machine runs.
process.on('message', (message) => {
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage()
    process.send({ cpu: user + system })
  }
})
