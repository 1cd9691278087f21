// A warm MCP tool call against the warm REST GET it stands for, through Express and Koa:
// one server per framework serves both, from the same cache entry, and the two take turns
// round by round. Prints req/s, p50 and p99 for each and the ratio (target: the tool call
// within 25% of the GET, i.e. its req/s at least 0.80 of the GET's). Then the gateway's cost
// above the MCP SDK's own: the same tool call against a bare SDK server in the same process
// and framework, over the SDK's transport, whose one tool returns the same envelope as a
// constant (target: the gateway's CPU per call at most 1.25 × the bare server's). Also times both through
// gateway.handle() in process, without HTTP. Not part of `npm test`; run after `npm run build`
// with `node bench/mcp.js`, or through `npm run bench`.
import { performance } from 'node:perf_hooks'
import autocannon from 'autocannon'
import Keyv from 'keyv'
import { createGateway } from '@allmenning/core'
import { mcpServers } from '@allmenning/mcp'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { statnett } from '@allmenning/sources'
import { median, placement, startServer } from './bench-process.js'
import { cpuOf } from './cpu-question.js'
import { startFakeStatnett } from './fake-statnett.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 6)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const path = '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=10'
const mcpBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_physical_flow', arguments: { area: 'NO2', limit: 10 } },
})
const mcpHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
}

/** One round of load; with the server's CPU time per request, which the machine's other work moves far less than req/s. */
async function load(child, options) {
  const before = await cpuOf(child)
  const result = await autocannon({ connections, duration: seconds, pipelining: 1, ...options })
  const used = (await cpuOf(child)) - before
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu: used / result.requests.total,
  }
}

async function compare(framework, upstream) {
  const { child, message: ready } = await startServer('./mcp-server.js', [framework, upstream.url, path, mcpBody])
  const origin = `http://127.0.0.1:${ready.port}`
  const targets = {
    rest: { url: `${origin}${path}` },
    mcp: { url: `${origin}/statnett/mcp`, method: 'POST', headers: mcpHeaders, body: mcpBody },
    bareRest: { url: `${origin}/bare/get` },
    bareMcp: { url: `${origin}/bare/mcp`, method: 'POST', headers: mcpHeaders, body: mcpBody },
    sdkMcp: { url: `${origin}/sdk/mcp`, method: 'POST', headers: mcpHeaders, body: mcpBody },
  }
  await Promise.all(Object.values(targets).map((t) => autocannon({ ...t, connections, duration: 2 })))
  const samples = { rest: [], mcp: [], bareRest: [], bareMcp: [], sdkMcp: [] }
  const kinds = Object.keys(targets)
  for (let round = 0; round < rounds; round++) {
    // A different order each round, so no kind always runs first or last.
    for (const kind of kinds.map((_, i) => kinds[(i + round) % kinds.length]))
      samples[kind].push(await load(child, targets[kind]))
  }
  child.kill()
  const row = (kind) => {
    const pick = (key) => median(samples[kind].map((s) => s[key]))
    return { rps: pick('rps'), p50: pick('p50'), p99: pick('p99'), cpu: pick('cpu') }
  }
  const rest = row('rest')
  const mcp = row('mcp')
  const bareRest = row('bareRest')
  const bareMcp = row('bareMcp')
  const sdkMcp = row('sdkMcp')
  return {
    sdkMcp,
    // The gateway's tool call over the bare SDK server's: CPU per call (above 1 is the gateway's own cost), and req/s.
    sdkCpuRatio: mcp.cpu / sdkMcp.cpu,
    roundSdkCpuRatios: samples.mcp.map((m, i) => (m.cpu / samples.sdkMcp[i].cpu).toFixed(2)),
    sdkRpsRatio: mcp.rps / sdkMcp.rps,
    roundSdkRpsRatios: samples.mcp.map((m, i) => (m.rps / samples.sdkMcp[i].rps).toFixed(2)),
    framework,
    ready,
    rest,
    mcp,
    bareRest,
    bareMcp,
    ratio: mcp.rps / rest.rps,
    roundRatios: samples.mcp.map((m, i) => (m.rps / samples.rest[i].rps).toFixed(2)),
    cpuRatio: mcp.cpu / rest.cpu,
    roundCpuRatios: samples.mcp.map((m, i) => (m.cpu / samples.rest[i].cpu).toFixed(2)),
  }
}

/** Microseconds per gateway.handle() for the warm GET and the warm tool call, in process. */
async function inProcess(upstream) {
  const gateway = createGateway({
    sources: [statnett()],
    upstreams: { statnett: { baseUrl: upstream.url } },
    cache: new Keyv(),
    extensions: [mcpServers()],
  })
  const get = { method: 'GET', path: path.split('?')[0], query: path.split('?')[1], headers: {} }
  const post = {
    method: 'POST',
    path: '/statnett/mcp',
    query: '',
    headers: mcpHeaders,
    readBody: () => Promise.resolve(mcpBody),
  }
  await gateway.handle(get)
  const time = async (request) => {
    const n = 20_000
    for (let i = 0; i < 2_000; i++) await gateway.handle(request)
    const start = performance.now()
    for (let i = 0; i < n; i++) await gateway.handle(request)
    return ((performance.now() - start) * 1000) / n
  }
  const samples = { rest: [], mcp: [] }
  for (let round = 0; round < 5; round++) {
    samples.rest.push(await time(get))
    samples.mcp.push(await time(post))
  }
  return { rest: median(samples.rest), mcp: median(samples.mcp) }
}

/**
 * The SDK server's own floor: microseconds per tools/call through a bare SDK `Server` whose
 * tool returns a constant two-field result, over an in-memory transport. No gateway, no HTTP:
 * what any server built on the SDK pays per call before doing anything of its own.
 */
async function sdkFloor() {
  const server = new Server({ name: 'floor', version: '1' }, { capabilities: { tools: {} } })
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: 'text', text: 'ok' }],
    structuredContent: { ok: true },
  }))
  const waiting = new Map()
  const transport = {
    async start() {},
    async close() {},
    async send(message) {
      waiting.get(message.id)?.(message)
      waiting.delete(message.id)
    },
  }
  await server.connect(transport)
  let id = 0
  const call = () =>
    new Promise((resolve) => {
      waiting.set(++id, resolve)
      transport.onmessage({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'get_physical_flow', arguments: { area: 'NO2', limit: 10 } },
      })
    })
  const samples = []
  for (let round = 0; round < 6; round++) {
    const n = 20_000
    const start = performance.now()
    for (let i = 0; i < n; i++) await call()
    if (round > 0) samples.push(((performance.now() - start) * 1000) / n)
  }
  return median(samples)
}

/** Measures and returns the MCP section as Markdown; records its ratios in `figures` when given. */
export async function mcpReport(figures) {
  const upstream = await startFakeStatnett()
  const results = [await compare('express', upstream), await compare('koa', upstream)]
  for (const r of results) {
    figures?.record(`MCP ${r.framework} tools/call ÷ GET req/s`, r.ratio, { unit: 'ratio', better: 'higher' })
    figures?.record(`MCP ${r.framework} tools/call ÷ GET CPU per request`, r.cpuRatio, {
      unit: 'ratio',
      better: 'lower',
    })
    figures?.record(`MCP ${r.framework} gateway ÷ bare SDK server CPU per call`, r.sdkCpuRatio, {
      unit: 'ratio',
      better: 'lower',
    })
    figures?.record(`MCP ${r.framework} gateway ÷ bare SDK server req/s`, r.sdkRpsRatio, {
      unit: 'ratio',
      better: 'higher',
    })
  }
  const local = await inProcess(upstream)
  const floor = await sdkFloor()
  await upstream.close()
  const lines = [
    '',
    `MCP: a warm tools/call (get_physical_flow, area=NO2, limit=10) against the warm GET ${path}, same server, same cache entry; ${rounds} rounds × ${seconds} s, ${connections} connections, median of rounds; ${placement}`,
    '',
    '| framework | GET body bytes | MCP body bytes | GET req/s | GET p50/p99 ms | tools/call req/s | tools/call p50/p99 ms | req/s ratio | per round | target |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const ok = r.ratio >= 0.8 ? 'met (≥ 0.80)' : 'MISSED (≥ 0.80)'
      return `| ${r.framework} | ${r.ready.restBytes} | ${r.ready.mcpBytes} | ${r.rest.rps.toFixed(0)} | ${r.rest.p50}/${r.rest.p99} | ${r.mcp.rps.toFixed(0)} | ${r.mcp.p50}/${r.mcp.p99} | ${r.ratio.toFixed(3)} | ${r.roundRatios.join(' ')} | ${ok} |`
    }),
    '',
    'Server CPU time (user + system) per request, µs, median of rounds; "bare" rows replay the same answers\' bytes from plain framework routes (the POST reading its body):',
    '',
    '| framework | GET | tools/call | tools/call ÷ GET | per round | target | bare GET | bare POST | bare POST ÷ bare GET |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const ok = r.cpuRatio <= 1.25 ? 'met (≤ 1.25)' : 'MISSED (≤ 1.25)'
      return `| ${r.framework} | ${r.rest.cpu.toFixed(1)} | ${r.mcp.cpu.toFixed(1)} | ${r.cpuRatio.toFixed(3)} | ${r.roundCpuRatios.join(' ')} | ${ok} | ${r.bareRest.cpu.toFixed(1)} | ${r.bareMcp.cpu.toFixed(1)} | ${(r.bareMcp.cpu / r.bareRest.cpu).toFixed(3)} |`
    }),
    '',
    "The gateway's cost above the MCP SDK's own: the same warm tools/call against a bare SDK server in the same process and framework (the SDK's Server and Streamable HTTP transport, stateless with JSON answers, one tool returning the same envelope as a constant), same rounds. Target: the gateway's CPU per call at most 1.25 × the bare server's (≤ 25% above it):",
    '',
    '| framework | SDK answer bytes | bare SDK req/s | bare SDK p50/p99 ms | gateway tools/call req/s | req/s ratio | per round | bare SDK CPU µs | gateway CPU µs | CPU ratio | per round | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const ok = r.sdkCpuRatio <= 1.25 ? 'met (≤ 1.25)' : 'MISSED (≤ 1.25)'
      return `| ${r.framework} | ${r.ready.sdkBytes} | ${r.sdkMcp.rps.toFixed(0)} | ${r.sdkMcp.p50}/${r.sdkMcp.p99} | ${r.mcp.rps.toFixed(0)} | ${r.sdkRpsRatio.toFixed(3)} | ${r.roundSdkRpsRatios.join(' ')} | ${r.sdkMcp.cpu.toFixed(1)} | ${r.mcp.cpu.toFixed(1)} | ${r.sdkCpuRatio.toFixed(3)} | ${r.roundSdkCpuRatios.join(' ')} | ${ok} |`
    }),
    '',
    `In process (gateway.handle, no HTTP), median of 5 × 20 000 calls: GET ${local.rest.toFixed(1)} µs, tools/call ${local.mcp.toFixed(1)} µs per call.`,
    `The SDK server's own floor (a bare SDK Server, a constant result, an in-memory transport): ${floor.toFixed(1)} µs per tools/call.`,
  ]
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await mcpReport())
