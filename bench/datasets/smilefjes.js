// Benchmarks the mattilsynet source's dataset at real scale: a generated smilefjes file in
// Mattilsynet's layout (see generate-smilefjes.js) imported as a user imports it
// (`allmenning datasets import mattilsynet_smilefjes`, its own process, timed by GNU time:
// rows/s and peak RSS), the placed-addresses file likewise, then the operations through the
// gateway in process with caching off: p50/p99.
// Not part of `npm test`. Usage: node --conditions=@allmenning/source --import tsx bench/datasets/smilefjes.js [rows]
// (the command line and the source run from their TypeScript sources, through tsx).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { createGateway } from '@allmenning/core'
import { createSqliteDatasetStore } from '@allmenning/datasets'
import { mattilsynet } from '../../packages/sources/src/mattilsynet/index.ts'
import { generateSmilefjes } from './generate-smilefjes.js'

const rows = Number(process.argv[2] ?? 120_000)
const dir = mkdtempSync(join(tmpdir(), 'allmenning-bench-smilefjes-'))
const file = join(dir, 'smilefjes-tilsyn.csv')
const pointsFile = join(dir, 'mattilsynet-adressepunkter.csv')
const dataDir = join(dir, 'data')
const cli = fileURLToPath(new URL('../../packages/datasets/src/cli/allmenning.ts', import.meta.url))
const catalog = `${fileURLToPath(new URL('../../packages/sources/src/mattilsynet/index.ts', import.meta.url))}#mattilsynetDatasets`
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]

function timedImport(id, path) {
  const timed = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %M %U %S',
      process.execPath,
      '--conditions=@allmenning/source',
      '--import',
      'tsx',
      cli,
      'datasets',
      'import',
      id,
      path,
      '--data-dir',
      dataDir,
      '--catalog',
      catalog,
    ],
    { encoding: 'utf8' },
  )
  if (timed.status !== 0) throw new Error(`import of ${id} failed: ${timed.stderr}`)
  const [seconds, maxRssKb, user, system] = timed.stderr.trim().split('\n').at(-1).split(' ').map(Number)
  return { seconds, rssMiB: Math.round(maxRssKb / 1024), user, system, summary: timed.stdout.trim().split('\n')[0] }
}

try {
  const written = await generateSmilefjes(rows, file, pointsFile)
  const loadBefore = load()
  const register = timedImport('mattilsynet_smilefjes', file)
  const points = timedImport('mattilsynet_adressepunkter', pointsFile)

  const store = createSqliteDatasetStore({ path: join(dataDir, 'allmenning.sqlite'), readonly: true })
  const noCache = { get: () => undefined, set: () => true, delete: () => true, clear: () => undefined }
  const { default: Keyv } = await import('keyv')
  const gateway = createGateway({
    sources: [mattilsynet()],
    datasets: store,
    cache: new Keyv({ store: noCache }),
    hotCacheEntries: 0,
    onError: () => {},
  })
  const measure = async (label, path, queries, calls) => {
    for (const query of queries) await gateway.handle({ method: 'GET', path, query, headers: {} }) // warm up
    const times = []
    for (let i = 0; i < calls; i++) {
      const query = queries[i % queries.length]
      const started = performance.now()
      const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
      times.push(performance.now() - started)
      if (res.status !== 200) throw new Error(`${path}?${query}: ${res.status} ${res.body}`)
    }
    times.sort((a, b) => a - b)
    return `| ${label}, ${calls} calls: p50 / p99 / max | ${quantile(times, 0.5).toFixed(2)} / ${quantile(times, 0.99).toFixed(2)} / ${times.at(-1).toFixed(2)} ms |`
  }
  const search = '/api/v1/kilder/mattilsynet/search_establishments'
  const lines = [
    await measure(
      'search_establishments poststed=Oslo, first page of 100',
      search,
      ['poststed=Oslo&min_karakter=0&limit=100'],
      200,
    ),
    await measure('search_establishments poststed=Oslo, limit=1000', search, ['poststed=Oslo&limit=1000'], 50),
    await measure('search_establishments kommune=0301, first page of 100', search, ['kommune=0301&limit=100'], 100),
    await measure(
      'search_establishments query (name words), 20 names',
      search,
      [
        'Kafé',
        'Pizzeria Sol',
        'Sushi Bølgen',
        'Kebab',
        'Bakeri Nord',
        'Thai Perlen',
        'Bistro',
        'Kroa',
        'Burger Løven',
        'Bar Fyret',
        'Kiosk',
        'Catering Smak',
        'Kantine',
        'Dagligvare Ørnen',
        'Restaurant Bryggen',
        'Måken',
        'Stua',
        'Torget',
        'Lykke',
        'Gården',
      ].map((q) => `query=${encodeURIComponent(q)}&limit=20`),
      200,
    ),
    await measure(
      'search_establishments since=2026-01-01 (a list of 333 dates)',
      search,
      ['since=2026-01-01&limit=100'],
      100,
    ),
    await measure(
      'find_establishments_nearby Oslo, radius 1 km',
      '/api/v1/kilder/mattilsynet/find_establishments_nearby',
      ['lat=59.91&lon=10.75'],
      200,
    ),
    await measure(
      'find_establishments_nearby Oslo, radius 10 km (the max)',
      '/api/v1/kilder/mattilsynet/find_establishments_nearby',
      ['lat=59.91&lon=10.75&radius_km=10'],
      50,
    ),
  ]
  store.close()
  console.log(
    `machine: ${cpus().length} × ${cpus()[0].model}, Node ${process.version}; load ${loadBefore} before, ${load()} after`,
  )
  console.log(
    `file: ${written.rows} inspections, ${written.bytes} bytes (${(written.bytes / 1048576).toFixed(1)} MiB), ${written.establishments} establishments, ${written.addresses} distinct addresses`,
  )
  console.log('| measure | result |\n|---|---|')
  const own = (summary) => Number(/in ([\d.]+) s/.exec(summary)?.[1])
  console.log(
    `| import mattilsynet_smilefjes (own process): the import itself (its summary); wall of the process, tsx's start included | ${own(register.summary)} s, **${Math.round(written.rows / own(register.summary)).toLocaleString('en')} records/s**; ${register.seconds} s wall (${register.summary}) |`,
  )
  console.log(
    `| its CPU (user + system); peak RSS | ${register.user} + ${register.system} s; **${register.rssMiB} MiB** |`,
  )
  console.log(
    `| import mattilsynet_adressepunkter (${written.addresses} addresses): the import itself; wall; peak RSS | ${own(points.summary)} s, ${Math.round(written.addresses / own(points.summary)).toLocaleString('en')} rows/s; ${points.seconds} s; ${points.rssMiB} MiB |`,
  )
  for (const line of lines) console.log(line)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
