// Benchmarks the legal source's rules on a generated corpus the size of Lovdata's public data
// (738 laws and 3,427 central regulations in the real markup, as gjeldende-lover.tar.bz2 and
// gjeldende-sentrale-forskrifter.tar.bz2; see packages/sources/src/lovdata/testing/corpus-generator.ts):
//   1. the import as a user runs it (`allmenning datasets import`, its own process, timed by
//      GNU time): wall and CPU time, peak RSS, and the store's size on disk;
//   2. search_rules through the gateway in process with caching off, over a query mix: short
//      titles, common words in titles and in the text, section references, rare words; p50/p99
//      per kind and over the whole mix, with the CPU time the measuring process used;
//   3. get_rule and get_section, the lookups search_rules' hint points to.
// Not part of `npm test`. Usage: npm run bench:lovdata [-- documents] (runs through tsx, which
// loads the TypeScript corpus generator; the gateway, store and source are the built packages).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { createGateway } from '@allmenning/core'
import { createSqliteDatasetStore } from '@allmenning/datasets'
import { lovdata } from '@allmenning/sources/lovdata'
import { writeCorpusArchives } from '../../packages/sources/src/lovdata/testing/corpus-generator.ts'

const documents = Number(process.argv[2] ?? 4165)
const laws = Math.round((documents * 738) / 4165)
const dir = mkdtempSync(join(tmpdir(), 'allmenning-bench-lovdata-'))
const dataDir = join(dir, 'data')
const cli = fileURLToPath(new URL('../../packages/datasets/dist/allmenning.js', import.meta.url))
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
const ms = (value) => value.toFixed(2)
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1)
const sizeOf = (path) => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/** Imports one archive as a user would, in its own process: wall, CPU, peak RSS. */
function importArchive(dataset, file) {
  const timed = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%e %M %U %S',
      process.execPath,
      cli,
      'datasets',
      'import',
      dataset,
      file,
      '--data-dir',
      dataDir,
      '--published',
      '2026-11-20',
    ],
    { encoding: 'utf8' },
  )
  if (timed.status !== 0) throw new Error(`import of ${dataset} failed: ${timed.stderr}`)
  const [seconds, maxRssKb, user, system] = timed.stderr.trim().split('\n').at(-1).split(' ').map(Number)
  return { dataset, seconds, maxRssKb, user, system, summary: timed.stdout.trim().split('\n')[0] }
}

try {
  const generated = performance.now()
  const corpus = await writeCorpusArchives(dir, { laws, regulations: documents - laws })
  const generateSeconds = (performance.now() - generated) / 1000
  const loadBefore = load()

  // 1. The imports.
  const imports = [
    importArchive('lovdata_lover', corpus.laws),
    importArchive('lovdata_forskrifter', corpus.regulations),
  ]
  const dbPath = join(dataDir, 'allmenning.sqlite')
  const dbBytes = sizeOf(dbPath) + sizeOf(`${dbPath}-wal`)

  // 2. and 3. Through the gateway with caching off, so every call reads the store.
  const store = createSqliteDatasetStore({ path: dbPath, readonly: true })
  const noCache = { get: () => undefined, set: () => true, delete: () => true, clear: () => undefined }
  const { default: Keyv } = await import('keyv')
  const gateway = createGateway({
    sources: [lovdata()],
    datasets: store,
    cache: new Keyv({ store: noCache }),
    hotCacheEntries: 0,
    onError: () => {},
  })
  // Wall time per call, and the CPU time this process spent on it (user + system): on a shared
  // machine the wall time's tail is mostly the scheduler, the CPU time's is the work.
  const call = async (path, query) => {
    const cpu = process.cpuUsage()
    const started = performance.now()
    const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
    const elapsed = performance.now() - started
    const used = process.cpuUsage(cpu)
    if (res.status !== 200) throw new Error(`${path}?${query}: ${res.status} ${res.body}`)
    return { elapsed, cpuMs: (used.user + used.system) / 1000, body: res.body }
  }
  const search = (q, extra = '') => `query=${encodeURIComponent(q)}${extra}`
  const SEARCH = '/api/v1/kilder/lovdata/search_rules'

  // The first law is Arbeidsmiljøloven, the second Aksjeloven, the third Straffeloven (the generator's topics).
  const ranking = []
  for (const [query, expected] of [
    ['straffeloven', 'Straffeloven'],
    ['aksjeloven', 'Aksjeloven'],
    ['arbeidsmiljøloven', 'Arbeidsmiljøloven'],
  ]) {
    for (const fullText of ['', '&full_text=yes']) {
      const { body } = await call(SEARCH, search(query, fullText))
      const first = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8')).data.hits[0]
      ranking.push({
        query: `${query}${fullText}`,
        ok: first?.title_short === expected,
        first: first?.title_short ?? first?.title,
      })
    }
  }

  const kinds = [
    {
      label: 'short titles, titles only',
      queries: [
        'straffeloven',
        'aksjeloven',
        'arbeidsmiljøloven',
        'forvaltningsloven',
        'plan- og bygningsloven',
        'offentleglova',
        'aksjelov',
      ].map((q) => search(q)),
    },
    {
      label: 'short titles, full_text=yes',
      queries: ['straffeloven', 'aksjeloven', 'skatteloven', 'kommuneloven'].map((q) => search(q, '&full_text=yes')),
    },
    {
      label: 'common words, titles only',
      queries: ['forskrift om', 'lov', 'kommunen', 'departementet', 'og'].map((q) => search(q)),
    },
    {
      label: 'common words, full_text=yes',
      queries: [
        'og',
        'skal',
        'departementet',
        'kommunen vedtaket',
        'rett til',
        'forskrift',
        'klage frist',
        'helse sikkerhet',
      ].map((q) => search(q, '&full_text=yes')),
    },
    {
      label: 'common words, full_text=yes, page 3 of one collection',
      queries: ['skal', 'departementet'].map((q) => search(q, '&full_text=yes&source=regulations&offset=40')),
    },
    {
      label: 'section references',
      queries: ['§ 5a', 'aksjeloven § 3-1', '§§ 3-1 til 3-3', 'straffeloven §5', 'paragraf 2-4'].map((q) => search(q)),
    },
    {
      label: 'section references, full_text=yes',
      queries: ['§ 5a', 'klage § 2-3', '§§ 1-1 til 1-3'].map((q) => search(q, '&full_text=yes')),
    },
    {
      label: 'rare words, full_text=yes',
      queries: ['havbrukskonsesjon', 'skoleregister', 'tilsynsnemnd', 'jernbanekart', 'folkejournal'].map((q) =>
        search(q, '&full_text=yes'),
      ),
    },
    { label: 'no hit', queries: ['xylofonlov', 'zzz qqq'].map((q) => search(q, '&full_text=yes')) },
  ]
  const measure = async (path, queries, rounds) => {
    for (const query of queries) await call(path, query) // warm up
    const times = []
    const cpuTimes = []
    for (let r = 0; r < rounds; r++) {
      for (const query of queries) {
        const { elapsed, cpuMs } = await call(path, query)
        times.push(elapsed)
        cpuTimes.push(cpuMs)
      }
    }
    cpuTimes.sort((a, b) => a - b)
    return Object.assign(times, { cpu: cpuTimes })
  }
  const cpuOf = (t) => `CPU p50 ${ms(quantile(t.cpu, 0.5))} ms, p99 ${ms(quantile(t.cpu, 0.99))} ms`
  const cpuBefore = process.cpuUsage()
  const wallBefore = performance.now()
  const rows = []
  const all = []
  const allCpu = []
  for (const kind of kinds) {
    const times = await measure(SEARCH, kind.queries, Math.ceil(200 / kind.queries.length))
    all.push(...times)
    allCpu.push(...times.cpu)
    times.sort((a, b) => a - b)
    rows.push({
      label: `search_rules: ${kind.label} (${kind.queries.length} queries)`,
      calls: times.length,
      p50: quantile(times, 0.5),
      p99: quantile(times, 0.99),
      max: times.at(-1),
      cpu: cpuOf(times),
    })
  }
  all.sort((a, b) => a - b)
  allCpu.sort((a, b) => a - b)
  const cpu = process.cpuUsage(cpuBefore)
  const searchWall = (performance.now() - wallBefore) / 1000

  const first = JSON.parse(Buffer.from((await call(SEARCH, search('aksjeloven'))).body).toString('utf8')).data.hits[0]
  const rule = JSON.parse(
    Buffer.from(
      (await call('/api/v1/kilder/lovdata/get_rule', `document_id=${encodeURIComponent(first.document_id)}&limit=200`))
        .body,
    ).toString('utf8'),
  ).data
  const sections = rule.sections.map((s) => s.section)
  const lookups = []
  for (const [label, path, queries] of [
    [
      'get_rule, first page of sections',
      '/api/v1/kilder/lovdata/get_rule',
      [`document_id=${encodeURIComponent(first.document_id)}`],
    ],
    [
      'get_rule, full_text=yes',
      '/api/v1/kilder/lovdata/get_rule',
      [`document_id=${encodeURIComponent(first.document_id)}&full_text=yes`],
    ],
    [
      'get_section, every section of Aksjeloven',
      '/api/v1/kilder/lovdata/get_section',
      sections.map(
        (s) => `document_id=${encodeURIComponent(first.document_id)}&section=${encodeURIComponent(`§ ${s}`)}`,
      ),
    ],
  ]) {
    const times = await measure(path, queries, Math.ceil(200 / queries.length))
    times.sort((a, b) => a - b)
    lookups.push({
      label: `${label} (${queries.length} queries)`,
      calls: times.length,
      p50: quantile(times, 0.5),
      p99: quantile(times, 0.99),
      max: times.at(-1),
      cpu: cpuOf(times),
    })
  }
  store.close()

  console.log(
    `\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load average before: ${loadBefore}, after: ${load()}`,
  )
  console.log(
    `corpus: ${documents.toLocaleString('en-US')} documents (${laws} laws, ${documents - laws} regulations), generated in ${generateSeconds.toFixed(1)} s; archives ${mib(sizeOf(corpus.laws))} + ${mib(sizeOf(corpus.regulations))} MiB\n`,
  )
  console.log('| measure | value | target |')
  console.log('|---|---|---|')
  for (const i of imports) {
    console.log(
      `| import of ${i.dataset} (\`allmenning datasets import\`, own process) | ${i.seconds.toFixed(1)} s wall; CPU ${i.user.toFixed(1)} s user + ${i.system.toFixed(1)} s system; peak RSS ${Math.round(i.maxRssKb / 1024)} MiB | |`,
    )
  }
  console.log(`| load, both datasets | ${imports.reduce((s, i) => s + i.seconds, 0).toFixed(1)} s wall | |`)
  console.log(`| store size on disk (both datasets) | ${mib(dbBytes)} MiB | |`)
  for (const r of rows)
    console.log(
      `| ${r.label}: ${r.calls} calls | p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, max ${ms(r.max)} ms; ${r.cpu} | |`,
    )
  const p99 = quantile(all, 0.99)
  const cpuP99 = quantile(allCpu, 0.99)
  console.log(
    `| **search_rules, the whole mix: ${all.length} calls** | p50 ${ms(quantile(all, 0.5))} ms, p99 ${ms(p99)} ms; CPU per call p50 ${ms(quantile(allCpu, 0.5))} ms, p99 ${ms(cpuP99)} ms; ${searchWall.toFixed(1)} s wall, CPU ${(cpu.user / 1e6).toFixed(1)} s user + ${(cpu.system / 1e6).toFixed(1)} s system | p99 < 10 ms: wall ${p99 < 10 ? 'met' : 'MISSED'}, CPU ${cpuP99 < 10 ? 'met' : 'MISSED'} |`,
  )
  for (const r of lookups)
    console.log(
      `| ${r.label}: ${r.calls} calls | p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, max ${ms(r.max)} ms; ${r.cpu} | |`,
    )
  console.log(
    `| ranking: the law named first | ${ranking.map((r) => `${r.query} → ${r.first}`).join('; ')} | ${ranking.every((r) => r.ok) ? 'met' : 'MISSED'} |`,
  )
  for (const i of imports) console.log(`\n${i.dataset}: ${i.summary}`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
