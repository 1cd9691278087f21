// What observing costs on the hottest path, a cache hit answered in process: the gateway
// without observers (which builds no event), and with the Prometheus metrics, the
// OpenTelemetry spans (no SDK registered: the API's no-op tracer) and the JSON request log
// (written nowhere). One request at a time, so the figure is the gateway's own work per hit.
// Not part of `npm test`.
//
//   node --import tsx bench/observer-cost.js
//
// BENCH_CORE=<path to another checkout's packages/core/src/index.ts, inside this repository>
// measures that core's hit without observers as well, to compare with a core from before
// observers existed (`git archive <commit> packages/core | tar -x -C bench/.base`); with
// BENCH_OBSERVED=0, alone against it.
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as v from 'valibot'

const hits = Number(process.env.BENCH_HITS ?? 100_000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 7)

async function load(corePath) {
  const core = await import(corePath)
  const source = await import(new URL('source.ts', corePath).href)
  return { createGateway: core.createGateway, ...source }
}

function gatewayOf({ createGateway, defineOperation, defineSource, defineUpstream }, observers) {
  const upstream = defineUpstream({ id: 'stand_in', name: 'Stand-in', baseUrl: 'http://127.0.0.1:9', publisher: 'Bench' })
  const source = defineSource({
    id: 'bench',
    name: 'Bench',
    description: 'From memory.',
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
  return createGateway({ sources: [source], ...(observers ? { observers } : {}) })
}

const request = { method: 'GET', path: '/api/v1/kilder/bench/rows', query: 'area=NO2', headers: {} }

/** Nanoseconds per hit of each gateway: the median of `rounds` runs of `hits` requests, the gateways taking turns after a warm-up run each. */
async function nsPerHit(gateways) {
  const run = async (gateway) => {
    const start = process.hrtime.bigint()
    for (let i = 0; i < hits; i++) await gateway.handle(request)
    return Number(process.hrtime.bigint() - start) / hits
  }
  const times = {}
  for (const [name, gateway] of Object.entries(gateways)) {
    if ((await gateway.handle(request)).status !== 200) throw new Error(`the bench request failed (${name})`)
    await run(gateway)
    times[name] = []
  }
  for (let r = 0; r < rounds; r++) for (const [name, gateway] of Object.entries(gateways)) times[name].push(await run(gateway))
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, list.sort((a, b) => a - b)[Math.floor(list.length / 2)]]))
}

const here = await load(new URL('../packages/core/src/index.ts', import.meta.url).href)
const { prometheusMetrics } = await import('../packages/observability/src/prometheus/index.ts')
const { openTelemetryTracing } = await import('../packages/observability/src/opentelemetry/index.ts')
const { jsonRequestLog } = await import('../packages/observability/src/index.ts')

const gateways = {}
gateways['no observers'] = gatewayOf(here)
if (process.env.BENCH_CORE) gateways['core given by BENCH_CORE, no observers'] = gatewayOf(await load(pathToFileURL(resolve(process.env.BENCH_CORE)).href))
// BENCH_OBSERVED=0 leaves the observed gateways out: sharing the core's functions with them
// makes its call sites see more than one shape, which a process serving only one never does.
if (process.env.BENCH_OBSERVED !== '0') {
  gateways['metrics + spans (no SDK) + log'] = gatewayOf(here, [prometheusMetrics().observer, openTelemetryTracing(), jsonRequestLog({ write: () => {} })])
  gateways['metrics only'] = gatewayOf(here, [prometheusMetrics().observer])
  gateways['an observer that hears nothing'] = gatewayOf(here, [{}])
}
const results = await nsPerHit(gateways)

console.log(`cache hit in process, ${hits} requests x ${rounds} rounds, taking turns (median); load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
const base = results['no observers']
for (const [name, ns] of Object.entries(results)) console.log(`  ${name.padEnd(44)} ${(ns / 1000).toFixed(2)} µs/hit  (${(ns / base).toFixed(2)}x)`)
