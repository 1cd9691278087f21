// Benchmarks following a published snapshot, on a store holding a generated 1,000,000-row
// Aksjonærregisteret extract (see generate-aksjonaerregisteret.js) and both Lovdata collections
// at their real size (see packages/sources/src/lovdata/testing/corpus-generator.ts):
//   1. the snapshot: the store's size, the compressed object's, and the publish time to a local
//      S3 protocol server (s3rver, on 127.0.0.1; the harness the tests use);
//   2. cold start: a fresh process of the Express example (bundled, as `npm start` runs it)
//      with ALLMENNING_DATASETS_SNAPSHOT and an empty snapshot directory, from spawn to its first
//      200 of a dataset operation (aksjeeiere_for_selskap for the largest company): the download,
//      checksum, decompression and open included. Beside it, the same process opening the
//      store file already on disk (ALLMENNING_DATA_DIR), the cost without a snapshot;
//   3. a new snapshot seen: a follower checking every second, from the end of a publish to the
//      switch (onSwitch), and the check itself (manifest, download, verify, open, switch).
// The local server stands in for S3: no network latency or bandwidth limit, so the download
// time here is the follower's own cost (hashing, gunzip, disk), a floor for a real bucket.
// Not part of `npm test`. Usage: npm run bench:snapshot [-- rows runs documents]
// (npm run bench:snapshot; no build needed: it runs the sources)
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import {
  createSnapshotClient,
  createSqliteDatasetStore,
  parseSnapshotUrl,
  publishSnapshot,
} from '../../packages/datasets/src/index.ts'
import { startS3Server } from '../../packages/datasets/src/testing/s3-server.ts'
import { writeCorpusArchives } from '../../packages/sources/src/lovdata/testing/corpus-generator.ts'
import { bundleEntry, startBundled } from '../../test/support/bundled-process.ts'
import { generateAksjonaerregisteret } from './generate-aksjonaerregisteret.js'

const rows = Number(process.argv[2] ?? 1_000_000)
const runs = Number(process.argv[3] ?? 3)
// Lovdata documents, 738 laws in 4,165 as in the real collections.
const documents = Number(process.argv[4] ?? 4165)
const root = fileURLToPath(new URL('../../', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'allmenning-bench-snapshot-'))
const dataDir = join(dir, 'data')
const storePath = join(dataDir, 'allmenning.sqlite')
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1)
const seconds = (ms) => (ms / 1000).toFixed(2)
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** Imports a file as a user would: the command line in its own process. */
function importFile(dataset, file) {
  const started = performance.now()
  const run = spawnSync(
    process.execPath,
    [
      '--conditions=@allmenning/source',
      '--import',
      'tsx',
      'packages/datasets/src/cli/allmenning.ts',
      'datasets',
      'import',
      dataset,
      file,
      '--data-dir',
      dataDir,
      '--published',
      '2026-11-20',
    ],
    { cwd: root, encoding: 'utf8' },
  )
  if (run.status !== 0) throw new Error(`import of ${dataset} failed: ${run.stderr}`)
  return performance.now() - started
}

/** Spawns the bundled Express example and asks `path` until it answers 200: ms from spawn to listening and to that answer. */
async function coldStart(bundle, env, path) {
  const started = performance.now()
  const child = await startBundled(bundle, env)
  const listening = performance.now() - started
  let answered
  for (;;) {
    const res = await fetch(`${child.baseUrl}${path}`)
    await res.arrayBuffer()
    if (res.status === 200) {
      answered = performance.now() - started
      break
    }
    if (performance.now() - started > 300_000)
      throw new Error(`no 200 within 5 minutes: ${res.status}\n${child.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  child.child.kill('SIGTERM')
  await child.exited
  return { listening, answered }
}

const s3 = await startS3Server()
try {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}; load average at start ${load()}`)
  const file = join(dir, 'aksjonaerregisteret.csv')
  const { largest } = await generateAksjonaerregisteret(rows, file)
  const laws = Math.round((documents * 738) / 4165)
  const corpus = await writeCorpusArchives(dir, { laws, regulations: documents - laws })
  const importMs =
    importFile('aksjonaerregisteret', file) +
    importFile('lovdata_lover', corpus.laws) +
    importFile('lovdata_forskrifter', corpus.regulations)
  console.log(
    `store: ${rows.toLocaleString('en')} Aksjonærregisteret rows and ${corpus.documents.toLocaleString('en')} Lovdata documents, imported in ${seconds(importMs)} s`,
  )

  const client = createSnapshotClient({
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: s3.credentials,
    env: {},
  })
  const url = `s3://${s3.bucket}/bench`
  const location = parseSnapshotUrl(url)
  let started = performance.now()
  const published = await publishSnapshot({ storePath, location, client })
  const publishMs = performance.now() - started
  const manifest = published.manifest
  console.log(
    `1. snapshot ${manifest.id}: SQLite ${mib(manifest.sqliteBytes)} MiB (store file ${mib(statSync(storePath).size)} MiB), compressed ${mib(manifest.bytes)} MiB (${manifest.bytes.toLocaleString('en')} bytes); published in ${seconds(publishMs)} s; load ${load()}`,
  )

  const bundle = await bundleEntry('examples/express-server/src/main.ts')
  const path = `/api/v1/kilder/firmafakta/aksjeeiere_for_selskap?org_nr=${largest}`
  const snapshotEnv = {
    ALLMENNING_DATASETS_SNAPSHOT: url,
    ALLMENNING_SNAPSHOT_ENDPOINT: s3.endpoint,
    ALLMENNING_SNAPSHOT_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
  }
  const followed = []
  const local = []
  for (let run = 0; run < runs; run++) {
    const empty = mkdtempSync(join(dir, 'cold-'))
    followed.push(
      await coldStart(bundle, { ...snapshotEnv, ALLMENNING_DATASETS_SNAPSHOT_DIR: join(empty, 'snapshot') }, path),
    )
    rmSync(empty, { recursive: true, force: true })
    local.push(await coldStart(bundle, { ALLMENNING_DATA_DIR: dataDir }, path))
  }
  console.log(
    `2. cold start to the first dataset answer, median of ${runs}: following the snapshot ${seconds(median(followed.map((r) => r.answered)))} s ` +
      `(listening after ${seconds(median(followed.map((r) => r.listening)))} s; downloaded ${mib(manifest.bytes)} MiB, written ${mib(manifest.sqliteBytes)} MiB); ` +
      `the store file already on disk ${seconds(median(local.map((r) => r.answered)))} s; runs ${followed.map((r) => seconds(r.answered)).join(', ')} / ${local.map((r) => seconds(r.answered)).join(', ')} s; load ${load()}`,
  )

  let switched
  const follower = createSqliteDatasetStore({
    follow: {
      url,
      client,
      directory: join(dir, 'follower'),
      checkEverySeconds: 1,
      keepPreviousSeconds: 0,
      onSwitch: (m) => switched?.(m),
    },
  })
  await follower.ready
  const seen = []
  for (let run = 0; run < runs; run++) {
    const arrived = new Promise((resolve) => (switched = resolve))
    const next = await publishSnapshot({ storePath, location, client, force: true })
    const publishedAt = performance.now()
    const m = await arrived
    if (m.id !== next.manifest.id) throw new Error(`switched to ${m.id}, published ${next.manifest.id}`)
    seen.push(performance.now() - publishedAt)
  }
  follower.close()
  const checker = createSqliteDatasetStore({
    follow: { url, client, directory: join(dir, 'checker'), checkEverySeconds: 3600, keepPreviousSeconds: 0 },
  })
  await checker.ready
  const checks = []
  for (let run = 0; run < runs; run++) {
    await publishSnapshot({ storePath, location, client, force: true })
    started = performance.now()
    if (!(await checker.check())) throw new Error('the check did not switch')
    checks.push(performance.now() - started)
  }
  checker.close()
  console.log(
    `3. a new snapshot seen (checking every 1 s), from the end of the publish to the switch, median of ${runs}: ${seconds(median(seen))} s (${seen.map(seconds).join(', ')}); ` +
      `the check itself (manifest, download, verify, open, switch): ${seconds(median(checks))} s (${checks.map(seconds).join(', ')}); load ${load()}`,
  )
} finally {
  await s3.close()
  rmSync(dir, { recursive: true, force: true })
}
