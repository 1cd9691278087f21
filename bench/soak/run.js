// A soak of the example server: a steady rate of requests for minutes, nearly every one a URL
// not asked before (so each is a new cache key and a new upstream call), with the server's
// RSS read along the way. What it shows: memory that levels off once the caches are full,
// instead of growing with every new key. Not part of `npm test`.
//
//   npm run bench:soak                      # 5 minutes at 200 requests/s
//   SOAK_SECONDS=60 SOAK_RATE=100 npm run bench:soak
//
// The server runs with a 256 MiB heap limit (SOAK_HEAP_MB; 0 for Node's own), as it would in a
// container with a memory limit. Without one, on a machine with 24 GiB, V8 lets its heap grow
// to several times what is live before it collects in earnest: RSS then climbs for minutes
// although what the caches hold stays bounded.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Agent, request } from 'node:http'
import { startFakeStatnett } from '../fake-statnett.js'

const seconds = Number(process.env.SOAK_SECONDS ?? 300)
const rate = Number(process.env.SOAK_RATE ?? 200)
const heapMiB = Number(process.env.SOAK_HEAP_MB ?? 256)
const sampleEverySeconds = 10
const areas = ['NO1', 'NO2', 'NO3', 'NO4', 'NO5', 'SE1', 'SE2', 'SE3', 'SE4', 'DK1', 'FI']

const upstream = await startFakeStatnett()
const main = fileURLToPath(new URL('../../examples/express-server/dist/main.js', import.meta.url))
const server = spawn(process.execPath, [...(heapMiB > 0 ? [`--max-old-space-size=${heapMiB}`] : []), main], {
  // Rate limits off: the soak is one client asking 200 times a second, far past the example's default quota.
  env: { ...process.env, PORT: '0', ALLMENNING_UPSTREAM_STATNETT: upstream.url, ALLMENNING_RATE_LIMIT: 'off' },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const port = await new Promise((resolve, reject) => {
  server.once('exit', (code) => reject(new Error(`the example server exited with ${code} before listening`)))
  server.stdout.on('data', (chunk) => {
    const found = /localhost:(\d+)\//.exec(String(chunk))
    if (found) resolve(Number(found[1]))
  })
})

/** The server's resident set, in MiB, from the kernel's own count. */
function rssMiB() {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024
}

// Idle sockets are closed after 4 s, before the server's 5 s keep-alive timeout: a request
// written on a socket the server is closing that moment would fail with ECONNRESET.
const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 4000 })
const statuses = new Map()
let sent = 0
let answered = 0
let slowest = 0
let sequence = 0

/** A URL asked once: area, limit and offset together never repeat in a run. */
function freshPath() {
  const n = sequence++
  const area = areas[n % areas.length]
  const limit = 1 + (Math.floor(n / areas.length) % 100)
  const offset = Math.floor(n / (areas.length * 100))
  return `/api/v1/kilder/statnett/get_physical_flow?area=${area}&limit=${limit}&offset=${offset}`
}

function send(path) {
  sent++
  const started = performance.now()
  const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
    res.resume()
    res.on('end', () => {
      answered++
      slowest = Math.max(slowest, performance.now() - started)
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
    })
  })
  req.on('error', (error) => {
    answered++
    statuses.set(error.code ?? error.message, (statuses.get(error.code ?? error.message) ?? 0) + 1)
  })
  req.end()
}

const samples = []
const startedAt = Date.now()
const perTick = rate / 20
let owed = 0
// Every 50 ms, a twentieth of a second's requests: nine in ten new URLs, one in ten the same hot one.
const ticker = setInterval(() => {
  owed += perTick
  for (; owed >= 1; owed--) send(sent % 10 === 9 ? '/api/v1/kilder/statnett/get_physical_flow?area=NO2' : freshPath())
}, 50)
const sampler = setInterval(() => {
  const at = Math.round((Date.now() - startedAt) / 1000)
  samples.push({ at, rss: rssMiB(), answered })
  console.log(`  ${String(at).padStart(4)} s  RSS ${rssMiB().toFixed(1)} MiB  answered ${answered}`)
}, sampleEverySeconds * 1000)

await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
clearInterval(ticker)
clearInterval(sampler)
// Every request sent is answered before the server is stopped.
for (let waited = 0; answered < sent && waited < 30_000; waited += 100)
  await new Promise((resolve) => setTimeout(resolve, 100))
const last = rssMiB()
server.kill('SIGTERM')
agent.destroy()
await upstream.close()

const at = (second) =>
  samples.reduce((best, s) => (Math.abs(s.at - second) < Math.abs(best.at - second) ? s : best), samples[0])
const oneMinute = at(60)
const end = { at: seconds, rss: last }
const growth = end.rss / oneMinute.rss - 1
console.log(
  `\nsoak: ${seconds} s at ${rate} requests/s (9 in 10 a new URL), example Express server, ${heapMiB > 0 ? `--max-old-space-size=${heapMiB}` : "Node's own heap limit"}, Node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
)
console.log(
  `sent ${sent}, answered ${answered}, statuses ${JSON.stringify(Object.fromEntries(statuses))}, slowest ${slowest.toFixed(1)} ms\n`,
)
console.log('| at | RSS MiB |')
console.log('|---|---|')
for (const s of samples.filter((s) => s.at % 60 === 0 || s.at === sampleEverySeconds))
  console.log(`| ${s.at} s | ${s.rss.toFixed(1)} |`)
console.log(`| end (${end.at} s) | ${end.rss.toFixed(1)} |`)
console.log(
  `\nRSS from 1 minute to the end: ${(growth * 100).toFixed(1)}% (target: within ±20%) ${Math.abs(growth) <= 0.2 ? 'met' : 'MISSED'}`,
)
