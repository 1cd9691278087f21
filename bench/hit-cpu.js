// Server CPU time per cache hit, gateway against the bare route of the same framework, over a
// fixed number of requests per round; with `--profile DIR` each server also writes a V8 CPU
// profile there (read it with bench/cpuprofile-summary.js). CPU µs per request moves far less
// with the machine's other work than req/s does, so this is the figure to work from on a busy
// machine. Usage: node bench/hit-cpu.js [express|koa ...] [--profile DIR]
// Settings: BENCH_ROUNDS (5), BENCH_REQUESTS per round (40 000), BENCH_CONNECTIONS (32).
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { median, pinned } from './bench-process.js'
import { cpuOf } from './cpu-question.js'
import { startFakeStatnett } from './fake-statnett.js'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const requests = Number(process.env.BENCH_REQUESTS ?? 40000)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const path = '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=10'
const scripts = { express: './express-server.js', koa: './koa-server.js' }

const args = process.argv.slice(2)
const profileAt = args.indexOf('--profile')
const profileDir = profileAt === -1 ? undefined : args.splice(profileAt, 2)[1]
const frameworks = args.filter((a) => a in scripts)

async function start(framework, kind, upstream) {
  const file = fileURLToPath(new URL(scripts[framework], import.meta.url))
  const flags = profileDir
    ? [
        '--cpu-prof',
        '--cpu-prof-interval=250',
        `--cpu-prof-dir=${profileDir}`,
        `--cpu-prof-name=${framework}-${kind}.cpuprofile`,
      ]
    : []
  const command = pinned ? ['taskset', '-c', '0', process.execPath] : [process.execPath]
  const child = spawn(command[0], [...command.slice(1), ...flags, file, kind, upstream, path], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  })
  const [message] = await once(child, 'message')
  return { child, url: `http://127.0.0.1:${message.port}${path}`, busy: [] }
}

async function round(target) {
  const before = await cpuOf(target.child)
  const started = process.hrtime.bigint()
  const result = await autocannon({ url: target.url, connections, amount: requests, pipelining: 1 })
  const wall = Number(process.hrtime.bigint() - started) / 1000
  const used = (await cpuOf(target.child)) - before
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  // Below 1, the server waited on the load generator: its req/s then says little about its own cost.
  target.busy.push(used / wall)
  return used / result.requests.total
}

const upstream = await startFakeStatnett()
console.log(
  `load average at start: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}; ${rounds} rounds × ${requests} requests, ${connections} connections`,
)
for (const framework of frameworks.length ? frameworks : Object.keys(scripts)) {
  const targets = {
    bare: await start(framework, 'bare', upstream.url),
    gateway: await start(framework, 'gateway', upstream.url),
  }
  await Promise.all(Object.values(targets).map((t) => autocannon({ url: t.url, connections, amount: requests / 2 })))
  const samples = { bare: [], gateway: [] }
  for (let r = 0; r < rounds; r++) {
    for (const kind of r % 2 === 0 ? ['bare', 'gateway'] : ['gateway', 'bare'])
      samples[kind].push(await round(targets[kind]))
  }
  for (const t of Object.values(targets)) {
    t.child.kill('SIGINT')
    await once(t.child, 'exit')
  }
  const bare = median(samples.bare)
  const gateway = median(samples.gateway)
  const show = (list) => list.map((v) => v.toFixed(1)).join(' ')
  console.log(
    `${framework}: CPU µs per request, median of rounds: bare ${bare.toFixed(1)} (${show(samples.bare)}), gateway ${gateway.toFixed(1)} (${show(samples.gateway)}); bare ÷ gateway ${(bare / gateway).toFixed(3)}; server CPU ÷ wall time, median: bare ${median(targets.bare.busy).toFixed(2)}, gateway ${median(targets.gateway.busy).toFixed(2)}`,
  )
}
console.log(
  `load average at end: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
)
await upstream.close()
