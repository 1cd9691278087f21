// How long the example a user runs takes to start, and what it holds once started: each
// framework's built `dist/main.js` with its defaults (no REDIS_URL), from spawn to the line
// saying where it listens, and its resident memory then; the median of 7 starts each.
// Run after `npm run build` with `node bench/example-start.js`.
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { median } from './bench-process.js'
import { startExample } from './example-process.js'

const starts = Number(process.env.BENCH_STARTS ?? 7)

/** Milliseconds from spawn to listening, and resident MB then, of one start. */
async function start(framework) {
  const began = performance.now()
  const { child } = await startExample(framework, { REDIS_URL: '' })
  const ms = performance.now() - began
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1])
  child.kill()
  await once(child, 'exit')
  return { ms, mb: rssKb / 1024 }
}

console.log(`| example | start to listening, ms (median of ${starts}) | resident MB then (median) |`)
console.log('|---|---|---|')
for (const framework of ['express', 'koa']) {
  const runs = []
  for (let i = 0; i < starts; i++) runs.push(await start(framework))
  const ms = median(runs.map((r) => r.ms))
  const mb = median(runs.map((r) => r.mb))
  console.log(`| ${framework} | ${ms.toFixed(0)} | ${mb.toFixed(1)} |`)
}
