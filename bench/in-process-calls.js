// What the gateway's own calls cost: a place bundle (section=all, thirteen operations) and
// a cross-source search (mode=all, each source searching through one of its operations),
// each against one operation call measured in the same run. Upstreams answer at once from
// memory, so the time is the gateway's own work: validation, cache keys, the cache, envelopes
// and how an answer travels from the operation to the bundle or search that asked for it.
// In process, one request at a time. Not part of `npm test`.
//
//   npm run bench:in-process
//
// BENCH_CORE=<path to another checkout's packages/core/src/index.ts> measures that core
// instead (kept inside this repository, so it finds the same node_modules): run it and this
// one in turn on the same machine to compare two versions.
import { loadavg } from 'node:os'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as v from 'valibot'

const corePath = process.env.BENCH_CORE
  ? pathToFileURL(resolve(process.env.BENCH_CORE)).href
  : new URL('../packages/core/src/index.ts', import.meta.url).href
const { createGateway } = await import(corePath)
// The plugin API is in the core's `/source` entry; a core from before the entries by audience has it on its root.
const sourceEntry = new URL('source.ts', corePath)
const { defineOperation, defineSource, defineUpstream } = await import(
  existsSync(sourceEntry) ? sourceEntry.href : corePath
)

const calls = Number(process.env.BENCH_CALLS ?? 400)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)

const upstream = defineUpstream({
  id: 'stand_in',
  name: 'Stand-in upstream',
  baseUrl: 'http://127.0.0.1:9',
  publisher: 'Bench',
  license: 'CC0',
})
const point = {
  lat: v.pipe(v.number(), v.minValue(-90), v.maxValue(90)),
  lon: v.pipe(v.number(), v.minValue(-180), v.maxValue(180)),
}
const placeFieldNames = [
  'addresses',
  'place_names',
  'current_weather',
  'forecast',
  'air_stations',
  'air_forecast',
  'pois',
  'vessels',
  'aquaculture',
  'ports',
  'charging_stations',
  'fire_detections',
  'price_area',
]
const sectionOf = {
  addresses: 'geography',
  place_names: 'geography',
  current_weather: 'weather',
  forecast: 'weather',
  air_stations: 'air',
  air_forecast: 'air',
  fire_detections: 'air',
  pois: 'poi',
  charging_stations: 'energy',
  price_area: 'energy',
  vessels: 'maritime',
  aquaculture: 'maritime',
  ports: 'maritime',
}
// A core with place fields open to plugins takes a declaration; an earlier one, the bare name.
const declaresSections = existsSync(sourceEntry)
const placeFieldOf = (field) =>
  declaresSections
    ? {
        name: field,
        section: sectionOf[field],
        description: `Stand-in for ${field}.`,
        summary: ['addresses', 'place_names', 'current_weather'].includes(field),
      }
    : field
const common = {
  documentation: 'https://example.no/bench',
  contentLanguages: ['en'],
  cacheTtlSeconds: 600,
  upstreams: [upstream],
}

/** Every place field, each answered at once with twenty items. */
const places = defineSource({
  ...common,
  id: 'places_bench',
  name: 'Place stand-ins',
  description: 'Every place field, from memory.',
  topic: 'places',
  keywords: ['bench'],
  operations: placeFieldNames.map((field) =>
    defineOperation({
      name: `near_${field}`,
      description: `Stand-in for ${field}.`,
      parameters: point,
      output: v.array(v.object({ name: v.string(), lat: v.number(), lon: v.number(), detail: v.string() })),
      placeField: placeFieldOf(field),
      async run(params, ctx) {
        ctx.upstream(upstream)
        return {
          data: Array.from({ length: 20 }, (_, i) => ({
            name: `${field} ${i}`,
            lat: params.lat + i / 1000,
            lon: params.lon,
            detail: 'x'.repeat(60),
          })),
        }
      },
    }),
  ),
})

/** A source whose entity search calls its own operation, as brreg's and avinor's do. */
function searchSource(id) {
  return defineSource({
    ...common,
    id,
    name: `Search stand-in ${id}`,
    description: 'Entities from memory.',
    topic: 'bench',
    keywords: [id],
    entityTypes: { thing: { operation: 'find_things', parameter: 'name' } },
    entitySearch: {
      async search(q, ctx) {
        const found = await ctx.call('find_things', { name: q, limit: ctx.limit, exact: false })
        return { hits: found.map((t) => ({ type: 'thing', id: t.id, name: t.name })) }
      },
    },
    operations: [
      defineOperation({
        name: 'find_things',
        description: 'Things by name.',
        parameters: { name: v.pipe(v.string(), v.minLength(1)), exact: v.optional(v.boolean(), false) },
        paging: { limit: { default: 10, max: 50 } },
        output: v.array(v.object({ id: v.string(), name: v.string(), description: v.string() })),
        async run(params, ctx) {
          ctx.upstream(upstream)
          return {
            data: Array.from({ length: 20 }, (_, i) => ({
              id: `${id}-${i}`,
              name: `${params.name} ${i}`,
              description: 'y'.repeat(80),
            })),
          }
        },
      }),
    ],
  })
}

const searchSources = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'].map(searchSource)

function gateway() {
  return createGateway({ sources: [places, ...searchSources], onError: (error) => console.error(error) })
}

const get = (path, query) => ({ method: 'GET', path, query, headers: {} })

/** CPU microseconds per answer of `request(i)` for `calls` distinct requests on a fresh gateway, each answered 200. */
async function timeEach(request) {
  const g = gateway()
  // Warm the code paths (JIT) on requests of their own before measuring.
  for (let i = 0; i < 50; i++) await g.handle(request(1_000_000 + i))
  check(JSON.parse((await g.handle(request(2_000_000))).body))
  // CPU time of this process rather than wall time: on a machine shared with other work, the
  // time spent waiting for a core is not the gateway's.
  const started = process.cpuUsage()
  for (let i = 0; i < calls; i++) {
    const response = await g.handle(request(i))
    if (response.status !== 200) throw new Error(`${response.status}: ${response.body}`)
  }
  const used = process.cpuUsage(started)
  return (used.user + used.system) / calls
}

/** A run measures nothing unless every field and every source answered. */
function check(answer) {
  if (answer.summary && answer.summary.ok !== placeFieldNames.length)
    throw new Error(`a bundle field failed: ${JSON.stringify(answer.summary)}`)
  if (
    answer.coverage &&
    (Object.values(answer.coverage).some((c) => c.status !== 'ok' || c.returned === 0) || answer.returned === 0)
  ) {
    throw new Error(`a source's search failed: ${JSON.stringify(answer.coverage)}`)
  }
}

/**
 * CPU microseconds per bundle asked for by fields at points whose section=all bundle was just
 * made: a miss for the bundle, a cached answer for each of its operations. Few enough points
 * that every field stays in the hot cache.
 */
async function timeCachedFields() {
  const g = gateway()
  const points = 70
  const fields = `fields=${placeFieldNames.filter((f) => f !== 'price_area').join(',')}`
  for (let i = 0; i < 50; i++) await g.handle(get(`/api/v1/steder/${coordinates(1_000_000 + i)}`, fields))
  for (let i = 0; i < points; i++) await g.handle(cases.bundle(i))
  const started = process.cpuUsage()
  for (let i = 0; i < points; i++) {
    const response = await g.handle(get(`/api/v1/steder/${coordinates(i)}`, fields))
    if (response.status !== 200) throw new Error(`${response.status}: ${response.body}`)
    if (!response.headers['cache-status'].includes('fwd=miss')) throw new Error('the bundle itself should be a miss')
  }
  const used = process.cpuUsage(started)
  return (used.user + used.system) / points
}

const coordinates = (i) => `${(59 + i / 100_000).toFixed(5)}/${(10 + i / 100_000).toFixed(5)}`
const cases = {
  operation: (i) => get('/api/v1/kilder/places_bench/near_addresses', `lat=${59 + i / 100_000}&lon=10.75`),
  bundle: (i) => get(`/api/v1/steder/${coordinates(i)}`, 'section=all'),
  search: (i) => get('/api/v1/sok/alle', `q=thing${i}&mode=all&limit=10`),
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const samples = { operation: [], bundle: [], search: [], cachedFields: [] }
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0
    ? ['operation', 'bundle', 'search', 'cachedFields']
    : ['cachedFields', 'search', 'bundle', 'operation']) {
    samples[name].push(name === 'cachedFields' ? await timeCachedFields() : await timeEach(cases[name]))
  }
}
const load = loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')
console.log(
  `\nCold answers in process, one at a time, CPU time of the process: ${calls} distinct requests per round, ${rounds} rounds, median; Node ${process.version}; load average ${load}${process.env.BENCH_CORE ? `; core ${process.env.BENCH_CORE}` : ''}\n`,
)
console.log('| answer | CPU µs per answer | ratio to one operation | ratio per round |')
console.log('|---|---|---|---|')
for (const name of ['operation', 'bundle', 'search', 'cachedFields']) {
  const perRound = samples[name].map((s, i) => (s / samples.operation[i]).toFixed(1)).join(' ')
  const label = {
    operation: 'one operation call',
    bundle: 'place bundle, section=all (13 operations)',
    search: 'search, mode=all (6 sources, one operation each)',
    cachedFields: 'place bundle of 12 fields whose operations are cached',
  }[name]
  console.log(
    `| ${label} | ${median(samples[name]).toFixed(0)} | ${(median(samples[name]) / median(samples.operation)).toFixed(1)} | ${perRound} |`,
  )
}

// A warm call of one operation: a GET through `handle`, and the same call in process as an
// extension makes it (an MCP tool call), which a core without `invoke` on its host skips.
const warmCalls = 20_000
let host
const warm = createGateway({
  sources: [places],
  onError: (error) => console.error(error),
  extensions: [
    {
      name: 'probe',
      summary: { gateway: 'probe', source: 'probe' },
      attach: (lent) => ((host = lent), async () => ({ status: 204, headers: {}, body: null })),
    },
  ],
})
const warmRequest = get('/api/v1/kilder/places_bench/near_addresses', 'lat=59.9&lon=10.75')
async function cpuPerCall(call) {
  for (let i = 0; i < 2000; i++) await call()
  const started = process.cpuUsage()
  for (let i = 0; i < warmCalls; i++) await call()
  const used = process.cpuUsage(started)
  return (used.user + used.system) / warmCalls
}
const warmSamples = { get: [], invoke: [] }
for (let round = 0; round < rounds; round++) {
  warmSamples.get.push(await cpuPerCall(() => warm.handle(warmRequest)))
  if (host?.invoke)
    warmSamples.invoke.push(
      await cpuPerCall(() =>
        host.invoke(warmRequest, { source: 'places_bench', operation: 'near_addresses' }, { lat: 59.9, lon: 10.75 }),
      ),
    )
}
console.log(`\nWarm calls of one operation, ${warmCalls} per round, ${rounds} rounds, median CPU µs per call\n`)
console.log('| call | CPU µs per call |')
console.log('|---|---|')
console.log(`| GET through handle | ${median(warmSamples.get).toFixed(2)} |`)
if (warmSamples.invoke.length > 0)
  console.log(`| in process through the extension host (an MCP tool call) | ${median(warmSamples.invoke).toFixed(2)} |`)
