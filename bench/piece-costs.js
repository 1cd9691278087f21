// What each piece the example turns on costs a cache hit, in CPU µs per request, measured in
// process through `gateway.handle` (no HTTP, so a piece's cost is not lost in the framework's):
// a minimal gateway (one source, nothing on) against the same with one piece added, and with
// all of them, as the example ships. Gateways take turns, `rounds` times; each figure is the
// median. Part of `npm run bench`; alone: node bench/piece-costs.js
import * as v from 'valibot'
import { createGateway } from '@allmenning/core'
import { defineOperation, defineSource, defineUpstream } from '@allmenning/core/source'
import { builtInSources } from '@allmenning/sources'
import { mcpServers } from '@allmenning/mcp'
import { jsonRequestLog } from '@allmenning/observability'
import { prometheusMetrics } from '@allmenning/observability/prometheus'
import { openTelemetryTracing } from '@allmenning/observability/opentelemetry'

const hits = Number(process.env.BENCH_HITS ?? 100_000)
const rounds = Number(process.env.BENCH_PIECE_ROUNDS ?? 7)

const upstream = defineUpstream({ id: 'stand_in', name: 'Stand-in', baseUrl: 'http://127.0.0.1:9', publisher: 'Bench' })
const source = defineSource({
  id: 'bench',
  name: 'Bench',
  description: 'Twenty rows from memory.',
  documentation: 'https://example.no/bench',
  topic: 'bench',
  keywords: ['bench'],
  contentLanguages: ['en'],
  cacheTtlSeconds: 600,
  upstreams: [upstream],
  operations: [
    defineOperation({
      name: 'rows',
      description: 'Twenty rows.',
      parameters: { area: v.optional(v.string(), 'NO1') },
      output: v.array(v.object({ name: v.string(), value: v.number() })),
      run: async () => ({ data: Array.from({ length: 20 }, (_, i) => ({ name: `row ${i}`, value: i })) }),
    }),
  ],
})

const request = {
  method: 'GET',
  path: '/api/v1/kilder/bench/rows',
  query: 'area=NO2',
  headers: {},
  clientAddress: '192.0.2.7',
}
// A quota no run reaches: every request is counted and allowed, as the example counts them.
// The same as the HTTP bench gives the example (ALLMENNING_RATE_LIMIT=1000000000/60): the
// requests left go into each answer's RateLimit header, and beyond 2^30 they would be
// written as a float, about 0.25 µs a request that no real quota costs.
const counted = { quota: { requests: 1e9, windowSeconds: 60 }, expensive: { requests: 1e9, windowSeconds: 60 } }
const everything = () => ({
  sources: [source, ...builtInSources({})],
  rateLimit: counted,
  observers: [openTelemetryTracing(), prometheusMetrics().observer],
  extensions: [mcpServers()],
})

/** Each piece: its name, the options it adds to the minimal gateway's, and its target. */
const pieces = [
  { name: 'minimal gateway: one source, nothing on', options: () => ({}) },
  { name: 'rate limit, an allowed request counted', options: () => ({ rateLimit: counted }), target: 1 },
  // Hears requests, so each is timed and described for it: what every observer of requests costs.
  {
    name: 'an observer of requests that does nothing',
    options: () => ({ observers: [{ requestFinished: () => {} }] }),
    target: 0.5,
  },
  { name: 'Prometheus metrics', options: () => ({ observers: [prometheusMetrics().observer] }), target: 1 },
  { name: 'OpenTelemetry tracing, no SDK', options: () => ({ observers: [openTelemetryTracing()] }), target: 0.5 },
  {
    name: 'JSON request log (written nowhere)',
    options: () => ({ observers: [jsonRequestLog({ write: () => {} })] }),
    target: 2,
  },
  { name: 'MCP extension present', options: () => ({ extensions: [mcpServers()] }), target: 0.2 },
  {
    name: 'every built-in source configured besides',
    options: () => ({ sources: [source, ...builtInSources({})] }),
    target: 0.2,
  },
  { name: 'as the example ships: all of the above but the log', options: everything, target: 2 },
]

/** CPU µs per hit of `gateway` over `hits` requests, one at a time. */
async function cpuPerHit(gateway) {
  const before = process.cpuUsage()
  for (let i = 0; i < hits; i++) await gateway.handle(request)
  const used = process.cpuUsage(before)
  return (used.user + used.system) / hits
}

/** The figures of every piece, its cost over the minimal gateway, and whether it met its target. */
export async function pieceCosts() {
  const gateways = pieces.map((piece) => createGateway({ sources: [source], ...piece.options() }))
  for (const [i, gateway] of gateways.entries()) {
    const answer = await gateway.handle(request)
    if (answer.status !== 200)
      throw new Error(`${pieces[i].name}: the bench request answered ${answer.status}: ${answer.body}`)
    await cpuPerHit(gateway)
  }
  const times = gateways.map(() => [])
  for (let r = 0; r < rounds; r++)
    for (const [i, gateway] of gateways.entries()) times[i].push(await cpuPerHit(gateway))
  const medians = times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)])
  return pieces.map((piece, i) => ({
    name: piece.name,
    us: medians[i],
    cost: medians[i] - medians[0],
    target: piece.target,
  }))
}

/** The section of the results, its figures recorded in `figures`. */
export async function pieceReport(figures) {
  const rows = await pieceCosts()
  const lines = [
    `\nWhat each piece costs a cache hit, in process (\`gateway.handle\`, no HTTP): CPU µs per request, ${hits} requests × ${rounds} rounds taking turns, median; cost = over the minimal gateway\n`,
    '| piece | CPU µs per request | cost µs | target (cost) |',
    '|---|---|---|---|',
  ]
  for (const row of rows) {
    const target = row.target === undefined ? '' : `${row.cost <= row.target ? 'met' : 'MISSED'} (≤ ${row.target})`
    lines.push(
      `| ${row.name} | ${row.us.toFixed(2)} | ${row.target === undefined ? '' : row.cost.toFixed(2)} | ${target} |`,
    )
    figures.record(`piece: ${row.name}, CPU µs per hit`, row.us, { unit: 'µs', better: 'lower' })
  }
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { createFigures } = await import('./results-file.js')
  console.log(await pieceReport(createFigures()))
}
