import { existsSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import type { Writable } from 'node:stream'
import type { DatasetDefinition } from '@allmenning/core/source'
import { loadDatasetDefinitions, type DatasetDefinitionsRef } from '../import/dataset-definitions-module.js'
import { importInWorker, workerHeapLimitMb } from '../import/import-in-worker.js'
import type { ImportInput, ImportResult } from '../import/import-types.js'
import { createSqliteDatasetStore } from '../follow/create-sqlite-dataset-store.js'
import { breakImportLock } from '../store/import-lock.js'
import { openSqlite } from '../store/sqlite-connection.js'
import { tablesFingerprint } from '../store/table-names.js'
import { syncDataset } from '../sync/sync-dataset.js'
import { deriveDataset, syncOrder, upstreamVariable } from '../sync/derive-dataset.js'
import { datasetMirrorFromEnv, datasetMirrorVariable } from '../sync/dataset-mirror.js'
import { datasetStorePath, defaultDataDir } from '../store/store-path.js'
import { datasetLoadCommand } from '../store/load-command.js'
import { createProgressReporter, duration } from './progress-reporter.js'
import { publishCommand, pullCommand } from './snapshot-commands.js'
import { parseSnapshotUrl, SnapshotUrlError } from '../snapshot/snapshot-location.js'
// Only `version` is imported, so bundlers leave the rest of package.json out.
import { version } from '../../package.json'
import { limitOptions, readLimits, type ReadLimits } from '../read/read-limits.js'

/** Where the command line writes and what it reads; `process` by default. */
export interface CliIo {
  stdout: Writable
  stderr: Writable
  env: Record<string, string | undefined>
  cwd: string
  /** Whether stderr is a terminal (a redrawn progress bar) or not (plain lines). */
  tty: boolean
  signal?: AbortSignal
}

const usage = `Usage: allmenning datasets <command> [options]

Commands:
  list                          every dataset: loaded or not, rows, version date, origin
  status                        the store file and each loaded version in detail
  sync [id...]                  download changed files from the publishers and load them
                                (all downloadable datasets when no id is given); then bring
                                forward the datasets derived from them: a bounded, resumable
                                run of upstream requests (mattilsynet_adressepunkter: the
                                smilefjes addresses placed by Kartverket's address search),
                                loaded when it found anything. Ctrl-C keeps what a run found;
                                the next sync goes on from there. Name a derived dataset to
                                run it alone: sync mattilsynet_adressepunkter
  import <id> <file...>         load local files (datasets ordered by e-mail)
  unlock <id>                   remove the import lock an import that no longer runs left behind
  publish <s3-url>              publish the store as a snapshot: s3://<bucket>/<prefix> gets
                                snapshots/<id>.sqlite.gz, then manifest.json naming it
  pull <s3-url>                 download the published snapshot, checked, in place of the store
                                (for an init step, before the gateway starts)

Options:
  --data-dir <dir>              where the store lives (default $ALLMENNING_DATA_DIR or ./data)
  --definitions <module[#export]>
                                a module exporting \`datasets\`, the dataset definitions to use
                                (default: the built-in sources'; --catalog is its earlier name)
  --published <YYYY-MM-DD>      import: the publisher's date of the file (default: its mtime)
  --force                       sync: download and load even when nothing changed; publish,
                                pull: upload or download even when the versions are the same
  --budget <n>                  sync: most upstream requests of each derived dataset's run
                                (default: the dataset's own; mattilsynet_adressepunkter 5000,
                                at 10 a second about 8 min 20 s)
  --publish <s3-url>            sync: publish the store afterwards (one job keeps every instance current)
  --to <file>                   pull: where to put the store (default: the store in --data-dir)
  --max-record-length <n>       import, sync: longest line or JSON element, in characters
                                (default 4Mi); a file with a longer one is refused
  --max-unpacked-bytes <n>      most a compressed file or zip member may unpack to (default 16GiB)
  --max-ratio <n>               most bytes unpacked per compressed byte past 64 MiB (default 100)
  --max-members <n>             most members of a zip or tar archive (default 100000)
  --max-workbook-bytes <n>      most an XLSX workbook may unpack to (default 256MiB)
                                (sizes take K, M, G, Ki, Mi, Gi, with or without B: 8GiB, 64Mi)
  -h, --help                    this text

Environment:
  ALLMENNING_DATA_DIR           the default for --data-dir
  ALLMENNING_UPSTREAM_<ID>      sync: the base URL of an upstream a derived dataset asks
                                (ALLMENNING_UPSTREAM_KARTVERKET_ADRESSER: Kartverket's addresses)
  ALLMENNING_DATASET_<ID>_URL   sync: download dataset <ID> from a mirror instead of its publisher:
                                a folder URL ending in / holding the files under their names,
                                or the URL of a dataset's only file
  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, AWS_REGION, ...
                                publish, pull: the AWS SDK's own settings and credential chain
  ALLMENNING_SNAPSHOT_ENDPOINT  publish, pull: a store other than AWS S3 (or the SDK's AWS_ENDPOINT_URL_S3)
  ALLMENNING_SNAPSHOT_PATH_STYLE=1
                                publish, pull: address the bucket in the path (MinIO)`

const userAgent = `allmenning-datasets/${version}`
const count = (n: number) => n.toLocaleString('en-US')

class UsageError extends Error {}

const units: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, ki: 1024, mi: 1024 ** 2, gi: 1024 ** 3 }

/** The read limits given as options (`--max-unpacked-bytes 32GiB`), checked. */
function limitsFrom(values: Record<string, unknown>): Partial<ReadLimits> {
  const limits: Partial<ReadLimits> = {}
  for (const [name, option] of Object.entries(limitOptions) as [keyof ReadLimits, string][]) {
    const given = values[option.slice(2)]
    if (typeof given !== 'string') continue
    const match = /^(\d+(?:\.\d+)?)\s*(k|m|g|ki|mi|gi)?b?$/i.exec(given.trim())
    const value = match ? Number(match[1]) * units[(match[2] ?? '').toLowerCase()]! : NaN
    if (!(value > 0))
      throw new UsageError(
        `${option} must be a positive number, with K, M, G, Ki, Mi or Gi if it is a size (got "${given}")`,
      )
    limits[name] = Math.round(value)
  }
  readLimits(limits)
  return limits
}

/** Where the built-in sources are, as a URL the import worker can load from anywhere. */
function builtInSourcesUrl(): string {
  const meta = import.meta as { resolve?: (specifier: string) => string }
  if (typeof meta.resolve === 'function') return meta.resolve('@allmenning/sources')
  // The CommonJS build has no import.meta.resolve.
  return pathToFileURL(createRequire(import.meta.url).resolve('@allmenning/sources')).href
}

function definitionsRef(option: string | undefined, cwd: string): DatasetDefinitionsRef {
  if (!option) return { module: builtInSourcesUrl(), export: 'builtInDatasets' }
  const [module, name] = option.split('#')
  // A file of the user's (`./datasets.ts`, `src/datasets.js`, an absolute path) by its path;
  // anything else is a package to import (`@my/sources#datasets`).
  const isFile = module!.startsWith('.') || module!.startsWith('/') || existsSync(resolve(cwd, module!))
  const specifier = isFile ? pathToFileURL(resolve(cwd, module!)).href : module!
  return { module: specifier, ...(name ? { export: name } : {}) }
}

function origin(dataset: DatasetDefinition, env: Record<string, string | undefined>): string {
  if (dataset.origin.kind === 'order') return `ordered from the publisher: ${datasetLoadCommand(dataset)}`
  if (dataset.origin.kind === 'derived') {
    const asks = dataset.origin.upstreams.map((u) => env[upstreamVariable(u.id)]?.trim() || u.baseUrl).join(', ')
    return `made from ${dataset.origin.from.join(', ')} by asking ${asks}: ${datasetLoadCommand(dataset)}`
  }
  const mirror = datasetMirrorFromEnv(env, dataset.id)
  if (mirror) return `mirror ${mirror} (${datasetMirrorVariable(dataset.id)})`
  const urls = dataset.files.map((file) => file.url ?? (file.discover ? `${file.discover.page} (linked files)` : ''))
  return urls.join(', ')
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
    .join('\n')
}

function summary(result: ImportResult): string {
  const malformed = result.malformed > 0 ? `; ${count(result.malformed)} malformed records skipped` : ''
  return `loaded ${count(result.rows)} rows from ${count(result.records)} records in ${(result.elapsedMs / 1000).toFixed(1)} s${malformed}; version ${result.publishedAt ?? 'undated'}`
}

/**
 * The `allmenning` command line: `allmenning datasets list | status | sync [id…] | import <id> <file…> | unlock <id> | publish <s3-url> | pull <s3-url>`.
 * Returns the exit code: 0 when everything asked for was done, 1 when something failed (with
 * a message saying what), 2 for a command it does not understand.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), tty: process.stderr.isTTY === true })
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const say = (text: string) => void io.stdout.write(`${text}\n`)
  const fail = (text: string) => void io.stderr.write(`error: ${text}\n`)
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        definitions: { type: 'string' },
        // The earlier name of --definitions, still read.
        catalog: { type: 'string' },
        published: { type: 'string' },
        force: { type: 'boolean' },
        publish: { type: 'string' },
        budget: { type: 'string' },
        to: { type: 'string' },
        ...Object.fromEntries(
          Object.values(limitOptions).map((option) => [option.slice(2), { type: 'string' as const }]),
        ),
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    fail((error as Error).message)
    io.stderr.write(`${usage}\n`)
    return 2
  }
  const [group, command, ...rest] = parsed.positionals
  if (parsed.values.help || group === undefined) {
    io.stdout.write(`${usage}\n`)
    return parsed.values.help ? 0 : 2
  }
  const dataDir = resolve(io.cwd, parsed.values['data-dir'] ?? defaultDataDir(io.env))
  const path = datasetStorePath(dataDir)
  try {
    if (group !== 'datasets')
      throw new UsageError(`unknown command "${group}"; the commands are under "allmenning datasets"`)
    if (parsed.values.publish !== undefined && command !== 'sync') {
      throw new UsageError(
        `--publish is an option of sync; to publish the store alone: allmenning datasets publish <s3-url>`,
      )
    }
    if (parsed.values.to !== undefined && command !== 'pull') throw new UsageError('--to is an option of pull')
    if (parsed.values.budget !== undefined && command !== 'sync') throw new UsageError('--budget is an option of sync')
    const budget = parsed.values.budget === undefined ? undefined : Number(parsed.values.budget)
    if (budget !== undefined && !(Number.isInteger(budget) && budget > 0))
      throw new UsageError(`--budget must be a positive whole number of requests (got "${parsed.values.budget}")`)
    // Before the definitions are loaded: an init step that pulls needs none.
    if (command === 'publish' || command === 'pull') {
      const [url, ...extra] = rest
      if (!url || extra.length > 0)
        throw new UsageError(`${command} needs one snapshot location, s3://<bucket>/<prefix>`)
      const snapshotIo = {
        say,
        progress: createProgressReporter(io.stderr, io.tty),
        env: io.env,
        force: parsed.values.force === true,
        ...(io.signal ? { signal: io.signal } : {}),
      }
      try {
        if (command === 'publish') return await publishCommand(url, path, snapshotIo)
        return await pullCommand(url, parsed.values.to ? resolve(io.cwd, parsed.values.to) : path, snapshotIo)
      } finally {
        snapshotIo.progress.done()
      }
    }
    const publishTo = parsed.values.publish
    // Checked before a long sync, not after it.
    if (publishTo !== undefined) parseSnapshotUrl(publishTo)
    const limits = limitsFrom(parsed.values)
    const { definitions: named, catalog: namedEarlier } = parsed.values
    if (named !== undefined && namedEarlier !== undefined && named !== namedEarlier)
      throw new UsageError(
        `--definitions and --catalog (its earlier name) name different modules (${named}, ${namedEarlier}): give one`,
      )
    const definitions = definitionsRef(named ?? namedEarlier, io.cwd)
    const datasets = await loadDatasetDefinitions(definitions)
    const byId = (id: string) => {
      const found = datasets.find((d) => d.id === id)
      if (!found) throw new UsageError(`no dataset "${id}"; the datasets are ${datasets.map((d) => d.id).join(', ')}`)
      return found
    }
    switch (command) {
      case 'list': {
        const store = createSqliteDatasetStore({ path, readonly: true })
        const loaded = store.loadedDatasets()
        store.close()
        const rows = [['DATASET', 'LOADED', 'ROWS', 'VERSION', 'ORIGIN']]
        for (const dataset of datasets) {
          const entry = loaded.get(dataset.id)
          const current = entry && entry.fingerprint === tablesFingerprint(dataset)
          rows.push([
            dataset.id,
            entry ? (current ? 'yes' : 'outdated') : 'no',
            entry ? count(entry.rows) : '-',
            entry?.publishedAt?.slice(0, 10) ?? '-',
            origin(dataset, io.env),
          ])
        }
        say(table(rows))
        return 0
      }
      case 'status': {
        if (!existsSync(path)) {
          say(`store: ${path} (not created yet; "allmenning datasets sync" or "import" creates it)`)
          return 0
        }
        const store = createSqliteDatasetStore({ path, readonly: true })
        const loaded = store.loadedDatasets()
        store.close()
        say(`store: ${path} (${(statSync(path).size / 1e6).toFixed(1)} MB)`)
        for (const dataset of datasets) {
          const entry = loaded.get(dataset.id)
          if (!entry) {
            say(`\n${dataset.id}: not loaded; load it with: ${datasetLoadCommand(dataset)}`)
            continue
          }
          const outdated =
            entry.fingerprint !== tablesFingerprint(dataset) ? ' (made for an older definition: load it again)' : ''
          say(`\n${dataset.id}: ${dataset.title}${outdated}`)
          say(
            `  version ${entry.publishedAt ?? 'undated'}, loaded ${entry.loadedAt}, ${count(entry.rows)} rows, ${count(entry.malformed)} malformed records skipped`,
          )
          say(`  changes ${dataset.changes}; licence ${dataset.license}`)
          for (const file of entry.files) {
            const validators = [
              file.etag ? `ETag ${file.etag}` : '',
              file.lastModified ? `Last-Modified ${file.lastModified}` : '',
            ]
              .filter(Boolean)
              .join(', ')
            say(
              `  file ${file.name}: ${file.url ?? file.path ?? ''} (${count(file.bytes)} bytes${validators ? `; ${validators}` : ''})`,
            )
          }
        }
        return 0
      }
      case 'sync': {
        rest.forEach(byId)
        const chosen = syncOrder(datasets, rest)
        const store = createSqliteDatasetStore({ path })
        const loaded = store.loadedDatasets()
        store.close()
        const progress = createProgressReporter(io.stderr, io.tty)
        const mirror = (dataset: DatasetDefinition) => datasetMirrorFromEnv(io.env, dataset.id)
        let failed = 0
        for (const dataset of chosen) {
          if (io.signal?.aborted) break
          if (dataset.origin.kind === 'derived') {
            const { action, requestsPerSecond } = dataset.origin
            const started = Date.now()
            let announced = false
            try {
              const outcome = await deriveDataset({
                path,
                dataDir,
                dataset,
                datasets,
                definitions,
                loaded: loaded.get(dataset.id),
                ...(budget !== undefined ? { budget } : {}),
                force: parsed.values.force === true,
                env: io.env,
                userAgent,
                limits,
                ...(io.signal ? { signal: io.signal } : {}),
                onProgress(p) {
                  if (!announced) {
                    announced = true
                    const later = p.due > p.total ? `; ${count(p.due - p.total)} left for later runs` : ''
                    progress.line(
                      p.due === 0
                        ? `${dataset.id}: ${action}: nothing due`
                        : `${dataset.id}: ${action}: ${count(p.due)} due, ${count(p.total)} in this run (at most ${count(requestsPerSecond)} a second: ` +
                            `about ${duration(p.total / requestsPerSecond)})${later}`,
                    )
                    if (p.due === 0) return
                  }
                  progress.derive(dataset.id, action, p, Date.now() - started)
                },
                onImport: (p) => progress.import(dataset.id, p),
              })
              progress.done()
              say(`${dataset.id}: ${outcome.run.summary}`)
              say(
                outcome.status === 'unchanged'
                  ? `${dataset.id}: nothing new; the loaded version stands`
                  : `${dataset.id}: ${summary(outcome.result)}`,
              )
              if (outcome.run.failure) {
                fail(`${dataset.id}: ${outcome.run.failure}`)
                failed++
              }
            } catch (error) {
              progress.done()
              fail(`${dataset.id}: ${(error as Error).message}`)
              failed++
            }
            continue
          }
          if (dataset.origin.kind !== 'download') {
            fail(`${dataset.id} is not published for download. ${dataset.origin.instructions}`)
            failed++
            continue
          }
          try {
            const outcome = await syncDataset({
              path,
              downloads: join(dataDir, 'downloads'),
              dataset,
              definitions,
              loaded: loaded.get(dataset.id),
              force: parsed.values.force === true,
              limits,
              ...(mirror(dataset) ? { mirror: mirror(dataset) } : {}),
              userAgent,
              ...(io.signal ? { signal: io.signal } : {}),
              onEvent(event) {
                if (event.type === 'downloading')
                  progress.download(
                    `${dataset.id} ${basename(new URL(event.url).pathname)}`,
                    event.received,
                    event.total,
                  )
                else if (event.type === 'importing') progress.import(dataset.id, event.progress)
                else if (event.type === 'unchanged') progress.line(`${dataset.id}: ${event.url} is unchanged`)
                else if (event.type === 'downloaded')
                  progress.line(`${dataset.id}: downloaded ${event.url} (${count(event.bytes)} bytes)`)
              },
            })
            progress.done()
            say(
              outcome.status === 'unchanged'
                ? `${dataset.id}: unchanged; nothing downloaded or loaded`
                : `${dataset.id}: ${summary(outcome.result)}`,
            )
          } catch (error) {
            progress.done()
            fail(`${dataset.id}: ${(error as Error).message}`)
            failed++
          }
        }
        // A dataset that failed keeps its previous version in the store, so what was synced is
        // published all the same; the exit code still says something failed.
        if (publishTo !== undefined && !io.signal?.aborted) {
          try {
            await publishCommand(publishTo, path, {
              say,
              progress,
              env: io.env,
              force: false,
              ...(io.signal ? { signal: io.signal } : {}),
            })
          } catch (error) {
            progress.done()
            fail((error as Error).message)
            failed++
          }
        }
        return failed > 0 ? 1 : 0
      }
      case 'import': {
        const [id, ...files] = rest
        if (!id || files.length === 0) throw new UsageError('import needs a dataset id and at least one file')
        const dataset = byId(id)
        const published = parsed.values.published
        if (published !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(published))
          throw new UsageError(`--published must be a date as YYYY-MM-DD (got "${published}")`)
        if (dataset.files.length > 1 && files.length !== dataset.files.length) {
          throw new UsageError(
            `${dataset.id} is read from ${dataset.files.length} files, given in this order: ${dataset.files.map((f) => f.name).join(', ')}`,
          )
        }
        const inputs: ImportInput[] = files.map((file, i) => {
          const local = resolve(io.cwd, file)
          if (!existsSync(local)) throw new Error(`${file}: no such file`)
          const declared = dataset.files.length > 1 ? dataset.files[i]! : dataset.files[0]!
          return {
            file: declared.name,
            ...(dataset.files.length === 1 && files.length > 1 ? { label: basename(local) } : {}),
            path: local,
            url: null,
          }
        })
        const publishedAt =
          published ??
          new Date(Math.max(...inputs.map((input) => statSync(input.path).mtimeMs))).toISOString().slice(0, 10)
        const progress = createProgressReporter(io.stderr, io.tty)
        try {
          const result = await importInWorker({
            path,
            definitions,
            datasetId: dataset.id,
            inputs,
            publishedAt,
            heapLimitMb: await workerHeapLimitMb(dataset),
            limits,
            onProgress: (p) => progress.import(dataset.id, p),
            ...(io.signal ? { signal: io.signal } : {}),
          })
          progress.done()
          say(`${dataset.id}: ${summary(result)}`)
          for (const sample of result.samples)
            say(`  skipped record ${sample.record} of ${sample.file}: ${sample.problem}`)
          return 0
        } catch (error) {
          progress.done()
          throw error
        }
      }
      case 'unlock': {
        const [id] = rest
        if (!id) throw new UsageError('unlock needs a dataset id')
        const dataset = byId(id)
        if (!existsSync(path)) {
          say(`${dataset.id} has no import lock (the store ${path} does not exist)`)
          return 0
        }
        const db = openSqlite(path)
        try {
          const holder = breakImportLock(db, dataset.id)
          say(
            holder
              ? `removed the import lock of ${dataset.id}, held by process ${holder.pid} on ${holder.host} since ${holder.startedAt}`
              : `${dataset.id} has no import lock`,
          )
        } finally {
          db.close()
        }
        return 0
      }
      default:
        throw new UsageError(command ? `unknown command "datasets ${command}"` : 'missing command after "datasets"')
    }
  } catch (error) {
    fail((error as Error).message)
    if (error instanceof UsageError || error instanceof SnapshotUrlError) {
      io.stderr.write(`${usage}\n`)
      return 2
    }
    return 1
  }
}
