// Two targets measured taking turns in the same seconds, the method every ratio of the bench
// uses: each round gives each target its seconds in slices (bare, gateway, gateway, bare, ...),
// since this virtual machine's speed drifts within seconds and a drift then falls on both
// targets of a round instead of on one of them; and each round starts both targets afresh.
// The ratio is the median of the rounds' ratios.
import autocannon from 'autocannon'
import { median } from './bench-process.js'

export const settings = {
  seconds: Number(process.env.BENCH_SECONDS ?? 6),
  rounds: Number(process.env.BENCH_ROUNDS ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  slices: Number(process.env.BENCH_SLICES ?? 3),
}

async function load(url, duration) {
  const result = await autocannon({ url, connections: settings.connections, duration, pipelining: 1 })
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  return { requests: result.requests.total, seconds: result.duration, p99: result.latency.p99 }
}

/** One round: each target's share of the round in slices, taking turns; its req/s over all of them, and its worst slice's p99. */
async function round(urls, first) {
  const totals = { bare: { requests: 0, seconds: 0, p99: 0 }, gateway: { requests: 0, seconds: 0, p99: 0 } }
  for (let slice = 0; slice < settings.slices; slice++) {
    const order = (first + slice) % 2 === 0 ? ['bare', 'gateway'] : ['gateway', 'bare']
    for (const kind of order) {
      const measured = await load(urls[kind], settings.seconds / settings.slices)
      totals[kind].requests += measured.requests
      totals[kind].seconds += measured.seconds
      totals[kind].p99 = Math.max(totals[kind].p99, measured.p99)
    }
  }
  const sample = (kind) => ({
    rps: totals[kind].requests / totals[kind].seconds,
    p99: totals[kind].p99,
    requests: totals[kind].requests,
  })
  return { bare: sample('bare'), gateway: sample('gateway') }
}

/** Both targets warmed together, so each has compiled its hot path before it is measured. */
function warm(urls) {
  return Promise.all(
    Object.values(urls).map((url) => autocannon({ url, connections: settings.connections, duration: 2 })),
  )
}

/**
 * Measures a gateway against its bare route in `rounds` rounds (`settings.rounds` unless
 * given), each round in processes of its own: `start()` starts both targets and resolves to
 * their `urls` (`bare`, `gateway`), optionally `cpu` (each target's CPU µs so far, for the CPU
 * each request cost), and `stop()`. Part of a process's speed is its own (where its code and heap fall in memory,
 * its hash seed): two processes of one build can differ by a few percent for their whole
 * life, so a ratio measured in one pair of processes carries that pair's luck. Over fresh
 * pairs, the median of the rounds' ratios is the build's.
 */
export async function alternate(start, rounds = settings.rounds) {
  const samples = { bare: [], gateway: [] }
  const cpuUsed = { bare: 0, gateway: 0 }
  let cpuRead = false
  for (let r = 0; r < rounds; r++) {
    const pair = await start()
    try {
      await warm(pair.urls)
      const before = pair.cpu && { bare: await pair.cpu.bare(), gateway: await pair.cpu.gateway() }
      const measured = await round(pair.urls, r)
      if (before) {
        cpuUsed.bare += (await pair.cpu.bare()) - before.bare
        cpuUsed.gateway += (await pair.cpu.gateway()) - before.gateway
        cpuRead = true
      }
      samples.bare.push(measured.bare)
      samples.gateway.push(measured.gateway)
    } finally {
      await pair.stop()
    }
  }
  const requests = (kind) => samples[kind].reduce((sum, s) => sum + s.requests, 0)
  const cpuPerRequest = cpuRead
    ? { bare: cpuUsed.bare / requests('bare'), gateway: cpuUsed.gateway / requests('gateway') }
    : undefined
  const row = (kind) => ({ rps: median(samples[kind].map((s) => s.rps)), p99: median(samples[kind].map((s) => s.p99)) })
  const ratios = samples.gateway.map((g, i) => g.rps / samples.bare[i].rps)
  return {
    bare: row('bare'),
    gateway: row('gateway'),
    ratio: median(ratios),
    roundRatios: ratios.map((r) => r.toFixed(2)),
    cpuPerRequest,
  }
}
