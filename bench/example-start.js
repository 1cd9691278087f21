// How long the example a user runs takes to start, and what it holds once started: each
// framework's built `dist/main.js` with its defaults (no REDIS_URL), from spawn to the line
// saying where it listens, and its resident memory then; the median of 7 starts each.
// Run after `npm run build` with `node bench/example-start.js`.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { median } from './bench-process.js'

const starts = Number(process.env.BENCH_STARTS ?? 7)

/** Milliseconds from spawn to listening, and resident MB then, of one start. */
async function start(main) {
  const began = performance.now()
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise((resolve, reject) => {
    let seen = ''
    child.stdout.on('data', (chunk) => {
      seen += chunk
      if (/on http:\/\/localhost:\d+\//.test(seen)) resolve()
    })
    child.once('exit', (code) => reject(new Error(`${main} exited (${code}) before listening: ${seen}`)))
  })
  const ms = performance.now() - began
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1])
  child.kill()
  await once(child, 'exit')
  return { ms, mb: rssKb / 1024 }
}

console.log(`| example | start to listening, ms (median of ${starts}) | resident MB then (median) |`)
console.log('|---|---|---|')
for (const framework of ['express', 'koa']) {
  const main = fileURLToPath(new URL(`../examples/${framework}-server/dist/main.js`, import.meta.url))
  const runs = []
  for (let i = 0; i < starts; i++) runs.push(await start(main))
  const ms = median(runs.map((r) => r.ms))
  const mb = median(runs.map((r) => r.mb))
  console.log(`| ${framework} | ${ms.toFixed(0)} | ${mb.toFixed(1)} |`)
}
