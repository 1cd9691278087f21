// Benchmarks the dataset layer on a generated 1,000,000-row Aksjonærregisteret extract in the
// real format, with owners of real cardinality (see generate-aksjonaerregisteret.js), against the built packages:
//   1. the import as a user runs it (`allmenning datasets import`, its own process): rows/s and
//      peak RSS;
//   2. with that loaded, aksjeeiere_for_selskap for the largest company and
//      aksjeposter_for_person, through the gateway in process with caching off: p50/p99;
//   3. a second import on a worker thread inside a serving process while requests keep
//      coming: the longest event-loop pause and the slowest answer meanwhile.
// Not part of `npm test`. Usage: npm run build && node bench/datasets/run.js [rows]
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createGateway } from '@allmenning/core'
import { createSqliteDatasetStore, importInWorker } from '@allmenning/datasets'
import { firmafakta } from '@allmenning/sources'
import { generateAksjonaerregisteret } from './generate-aksjonaerregisteret.js'

const rows = Number(process.argv[2] ?? 1_000_000)
const dir = mkdtempSync(join(tmpdir(), 'allmenning-bench-datasets-'))
const file = join(dir, 'aksjonaerregisteret.csv')
const dataDir = join(dir, 'data')
const cli = fileURLToPath(new URL('../../packages/datasets/dist/allmenning.js', import.meta.url))
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
const ms = (value) => value.toFixed(3)

try {
  const { largest, people: distinctPeople, owners } = await generateAksjonaerregisteret(rows, file)
  const loadBefore = load()

  // 1. The import as a user runs it, timed and measured by GNU time in its own process.
  const timed = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %M %U %S',
      process.execPath,
      cli,
      'datasets',
      'import',
      'aksjonaerregisteret',
      file,
      '--data-dir',
      dataDir,
      '--published',
      '2024-12-31',
    ],
    {
      encoding: 'utf8',
    },
  )
  if (timed.status !== 0) throw new Error(`import failed: ${timed.stderr}`)
  const [seconds, maxRssKb, user, system] = timed.stderr.trim().split('\n').at(-1).split(' ').map(Number)
  const summary = timed.stdout.trim().split('\n')[0]

  // 2. Lookups through the gateway with caching off, so every call reads the store.
  const store = createSqliteDatasetStore({ path: join(dataDir, 'allmenning.sqlite'), readonly: true })
  const noCache = { get: () => undefined, set: () => true, delete: () => true, clear: () => undefined }
  const { default: Keyv } = await import('keyv')
  const gateway = createGateway({
    sources: [firmafakta()],
    datasets: store,
    cache: new Keyv({ store: noCache }),
    hotCacheEntries: 0,
    onError: () => {},
  })
  const call = async (path, query) => {
    const started = performance.now()
    const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
    const elapsed = performance.now() - started
    if (res.status !== 200) throw new Error(`${path}?${query}: ${res.status} ${res.body}`)
    return elapsed
  }
  const people = execFileSync(
    'sh',
    [
      '-c',
      `awk -F';' '$5 ~ /^[0-9][0-9][0-9][0-9]$/ { print $4 ";" $5 }' ${file} | head -200000 | awk 'NR % 200 == 0'`,
    ],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .map((line) => line.split(';'))
  const measure = async (label, queries, path, rounds) => {
    for (const query of queries.slice(0, 50)) await call(path, query) // warm up
    const times = []
    for (let r = 0; r < rounds; r++) for (const query of queries) times.push(await call(path, query))
    times.sort((a, b) => a - b)
    return { label, calls: times.length, p50: quantile(times, 0.5), p99: quantile(times, 0.99), max: times.at(-1) }
  }
  const lookups = [
    await measure(
      `aksjeeiere_for_selskap, largest company (${largest}), first page (limit 100)`,
      [`org_nr=${largest}`],
      '/api/v1/kilder/firmafakta/aksjeeiere_for_selskap',
      2000,
    ),
    await measure(
      `aksjeeiere_for_selskap, largest company, pages 2 and 11 (offset 100, 1000)`,
      [`org_nr=${largest}&offset=100`, `org_nr=${largest}&offset=1000`],
      '/api/v1/kilder/firmafakta/aksjeeiere_for_selskap',
      500,
    ),
    await measure(
      'aksjeposter_for_person, 1,000 people from the file',
      people.map(([name, year]) => `name=${encodeURIComponent(name)}&birth_year=${year}`),
      '/api/v1/kilder/firmafakta/aksjeposter_for_person',
      2,
    ),
  ]

  // 3. A second import on a worker thread while this thread keeps answering lookups, after the
  // same lookups for 10 s with no import: on a shared machine the scheduler alone pauses a
  // thread, and the baseline shows how much.
  const baseline = monitorEventLoopDelay({ resolution: 5 })
  baseline.enable()
  for (const until = performance.now() + 10_000; performance.now() < until; ) {
    await call('/api/v1/kilder/firmafakta/aksjeeiere_for_selskap', `org_nr=${largest}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  baseline.disable()
  const delay = monitorEventLoopDelay({ resolution: 5 })
  const during = []
  let importing = true
  delay.enable()
  const importStarted = performance.now()
  const running = importInWorker({
    path: join(dataDir, 'allmenning.sqlite'),
    catalog: { module: import.meta.resolve('@allmenning/sources'), export: 'builtInDatasets' },
    datasetId: 'aksjonaerregisteret',
    inputs: [{ file: 'aksjonaerregisteret.csv', path: file, url: null }],
    publishedAt: '2025-12-31',
    heapLimitMb: 64,
  }).finally(() => (importing = false))
  while (importing) {
    during.push(await call('/api/v1/kilder/firmafakta/aksjeeiere_for_selskap', `org_nr=${largest}`))
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  const second = await running
  const importMs = performance.now() - importStarted
  delay.disable()
  during.sort((a, b) => a - b)
  store.close()

  console.log(
    `\nfile: ${rows.toLocaleString('en-US')} rows, ${owners.toLocaleString('en-US')} distinct owners (${distinctPeople.toLocaleString('en-US')} people)`,
  )
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average before: ${loadBefore}, after: ${load()}\n`,
  )
  console.log('| measure | value | target |')
  console.log('|---|---|---|')
  const rate = rows / seconds
  console.log(
    `| import of ${rows.toLocaleString('en-US')} rows (\`allmenning datasets import\`, own process) | ${seconds.toFixed(1)} s wall, ${Math.round(rate).toLocaleString('en-US')} rows/s; CPU ${user.toFixed(1)} s user + ${system.toFixed(1)} s system | ≥ 200,000 rows/s: ${rate >= 200_000 ? 'met' : 'MISSED'} |`,
  )
  console.log(
    `| peak RSS of that process | ${Math.round(maxRssKb / 1024)} MiB | < 300 MB: ${maxRssKb * 1024 < 300e6 ? 'met' : 'MISSED'} |`,
  )
  for (const l of lookups)
    console.log(
      `| ${l.label}: ${l.calls} calls | p50 ${ms(l.p50)} ms, p99 ${ms(l.p99)} ms, max ${ms(l.max)} ms | p99 < 2 ms: ${l.p99 < 2 ? 'met' : 'MISSED'} |`,
    )
  const pause = delay.max / 1e6
  console.log(
    `| second import on a worker thread inside the serving process | ${(importMs / 1000).toFixed(1)} s, ${second.rows.toLocaleString('en-US')} rows | |`,
  )
  console.log(
    `| baseline, the same lookups for 10 s without an import: longest event-loop pause | ${ms(baseline.max / 1e6)} ms | |`,
  )
  console.log(
    `| meanwhile: longest event-loop pause; ${during.length} lookups answered, p99, max | ${ms(pause)} ms; p99 ${ms(quantile(during, 0.99))} ms, max ${ms(during.at(-1))} ms | no pause > 50 ms: ${pause <= 50 ? 'met' : 'MISSED'} |`,
  )
  console.log(`\n${summary}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
