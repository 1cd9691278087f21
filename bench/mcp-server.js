// One MCP benchmark target, run in a child process so the load generator does not share its
// event loop: one gateway with MCP on (@allmenning/mcp) behind Express or Koa, serving both the warm REST GET
// and the warm tools/call that stands for the same GET (so the same cache entry). Beside it,
// /bare/get and /bare/mcp replay those two answers' exact bytes from plain framework routes
// (the POST reading its body as the adapters do): the floor the framework itself sets. And
// /sdk/mcp is a bare MCP server made only of the official SDK, in the same framework over the
// SDK's own Streamable HTTP transport (stateless, JSON answers, a server and transport per
// request as the SDK's stateless examples make them), whose one tool returns the same envelope
// as a constant: what an MCP server costs before it does anything of its own.
import express from 'express'
import Koa from 'koa'
import Keyv from 'keyv'
import { createGateway } from '@allmenning/core'
import { readRequestBody } from '@allmenning/core/adapter'
import { mcpServers } from '@allmenning/mcp'
import { statnett } from '@allmenning/sources'
import { createExpressMiddleware } from '@allmenning/adapter-express'
import { createKoaMiddleware } from '@allmenning/adapter-koa'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { answerCpuQuestions } from './cpu-question.js'

const [framework, upstream, path, mcpBody] = process.argv.slice(2)
const gateway = createGateway({
  sources: [statnett()],
  upstreams: { statnett: { baseUrl: upstream } },
  cache: new Keyv(),
  extensions: [mcpServers()],
})
const first = await gateway.handle({
  method: 'GET',
  path: path.split('?')[0],
  query: path.split('?')[1] ?? '',
  headers: {},
})
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
if (JSON.stringify(result.structuredContent) !== first.body)
  throw new Error('the tool call should carry the very envelope the GET stored')

// The bare SDK server's constant: the very envelope the gateway's tool call carries, as text and as structured content.
const constant = {
  content: [{ type: 'text', text: first.body }],
  structuredContent: JSON.parse(first.body),
  isError: false,
}
const tool = {
  name: 'get_physical_flow',
  description: 'A constant',
  inputSchema: { type: 'object', properties: { area: { type: 'string' }, limit: { type: 'integer' } } },
}

/** Answers one POST with a bare SDK server and transport, as the SDK's stateless examples do. */
async function bareSdk(req, res) {
  const server = new Server({ name: 'bare-sdk', version: '1' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [tool] }))
  server.setRequestHandler(CallToolRequestSchema, () => constant)
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  res.on('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(req, res)
}

const warmGet = await gateway.handle({
  method: 'GET',
  path: path.split('?')[0],
  query: path.split('?')[1] ?? '',
  headers: {},
})

let server
if (framework === 'express') {
  const app = express()
  app.disable('x-powered-by')
  app.get('/bare/get', (_req, res) => void res.status(200).set(warmGet.headers).end(warmGet.body))
  app.post('/bare/mcp', async (req, res) => {
    await readRequestBody(req)
    res.status(200).set(call.headers).end(call.body)
  })
  app.post('/sdk/mcp', (req, res) => void bareSdk(req, res))
  app.use(createExpressMiddleware(gateway))
  server = app.listen(0, '127.0.0.1', ready)
} else {
  const app = new Koa()
  app.use(async (ctx, next) => {
    if (ctx.path !== '/sdk/mcp') return next()
    // The SDK's transport writes the Node response itself.
    ctx.respond = false
    await bareSdk(ctx.req, ctx.res)
  })
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
// The bare SDK server must answer a tools/call with the same envelope, or the comparison is unfair.
async function checkBareSdk(port) {
  const res = await fetch(`http://127.0.0.1:${port}/sdk/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: mcpBody,
  })
  const answer = await res.json()
  if (res.status !== 200 || JSON.stringify(answer.result?.structuredContent) !== first.body)
    throw new Error(`the bare SDK server answered ${res.status}: ${JSON.stringify(answer).slice(0, 200)}`)
  return Buffer.byteLength(JSON.stringify(answer))
}
async function ready() {
  const sdkBytes = await checkBareSdk(server.address().port)
  process.send({
    sdkBytes,
    port: server.address().port,
    restBytes: Buffer.byteLength(first.body),
    mcpBytes: Buffer.byteLength(call.body),
  })
}
process.on('SIGINT', () => process.exit(0))
answerCpuQuestions()
