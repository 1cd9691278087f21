import { existsSync } from 'node:fs'
import { readLoadedDatasets } from '../store/loaded-datasets-table.js'
import { openSqlite } from '../store/sqlite-connection.js'
import { createSnapshotClient } from '../snapshot/snapshot-client.js'
import { downloadSnapshot } from '../snapshot/download-snapshot.js'
import { parseSnapshotUrl, type SnapshotLocation } from '../snapshot/snapshot-location.js'
import { readSnapshotManifest, sameDatasetVersions, type SnapshotManifest } from '../snapshot/snapshot-manifest.js'
import { datasetsOf, publishSnapshot } from '../snapshot/publish-snapshot.js'
import { megabytes, type ProgressReporter } from './progress-reporter.js'

/** What the snapshot commands need from the command line. */
export interface SnapshotCommandIo {
  say(text: string): void
  progress: ProgressReporter
  env: Record<string, string | undefined>
  signal?: AbortSignal
  force: boolean
}

const datasetCount = (manifest: SnapshotManifest) =>
  `${manifest.datasets.length} dataset${manifest.datasets.length === 1 ? '' : 's'}`

function describeDatasets(manifest: SnapshotManifest): string[] {
  return manifest.datasets.map(
    (d) => `  ${d.id}: version ${d.version ?? 'undated'}, loaded ${d.loadedAt}, ${d.rows.toLocaleString('en-US')} rows`,
  )
}

function clientFor(io: SnapshotCommandIo) {
  return createSnapshotClient({ env: io.env })
}

/**
 * `allmenning datasets publish <s3-url>` (and `sync --publish`): publishes the store at
 * `storePath` and says what it did. Returns the exit code.
 */
export async function publishCommand(url: string, storePath: string, io: SnapshotCommandIo): Promise<number> {
  const location = parseSnapshotUrl(url)
  const label = location.url
  const result = await publishSnapshot({
    storePath,
    location,
    client: clientFor(io),
    force: io.force,
    ...(io.signal ? { signal: io.signal } : {}),
    onProgress(p) {
      if (p.phase === 'copying') io.progress.line(`${label}: copying the store (a consistent copy, imports may go on)`)
      else if (p.phase === 'uploading') io.progress.upload(label, p.uploadedBytes, p.readBytes, p.sqliteBytes)
      else io.progress.line(`${label}: uploaded; switching the manifest to the new snapshot`)
    },
  })
  io.progress.done()
  const { manifest } = result
  if (result.status === 'unchanged') {
    io.say(
      `${label}: snapshot ${manifest.id} already holds the versions the store has; nothing uploaded (--force publishes anyway)`,
    )
    return 0
  }
  io.say(
    `published snapshot ${manifest.id} to ${label}: ${datasetCount(manifest)}, ${megabytes(manifest.bytes)} compressed from ${megabytes(manifest.sqliteBytes)}, sha256 ${manifest.sha256}`,
  )
  for (const line of describeDatasets(manifest)) io.say(line)
  if (result.deleted.length > 0)
    io.say(
      `removed ${result.deleted.length} older snapshot${result.deleted.length === 1 ? '' : 's'}; kept ${result.previous ? `the previous one (${result.previous.id}) for readers still fetching it` : 'none'}`,
    )
  if (result.pruneFailed) io.say(`warning: older snapshots were not removed: ${result.pruneFailed}`)
  return 0
}

function versionsIn(path: string) {
  const db = openSqlite(path, { readonly: true })
  try {
    return datasetsOf(readLoadedDatasets(db))
  } finally {
    db.close()
  }
}

/**
 * `allmenning datasets pull <s3-url> [--to <file>]`: downloads the published snapshot to `to`
 * (checked, then renamed over it in one step), unless `to` already holds its versions. For a
 * container's init step, before the gateway opens the file.
 */
export async function pullCommand(url: string, to: string, io: SnapshotCommandIo): Promise<number> {
  const location: SnapshotLocation = parseSnapshotUrl(url)
  // A write-ahead log beside the file belongs to the file there now: renaming another file
  // under it would have SQLite replay that log into the new one.
  for (const suffix of ['-wal', '-journal']) {
    if (existsSync(`${to}${suffix}`)) {
      throw new Error(
        `${to}${suffix} exists: a process has ${to} open or stopped without closing it. Pull before the gateway starts, or let the gateway follow the snapshot instead; if nothing has the file open, remove ${to}${suffix} and pull again`,
      )
    }
  }
  const client = clientFor(io)
  const manifest = await readSnapshotManifest(location, client, io.signal ? { signal: io.signal } : {})
  if (!io.force && existsSync(to)) {
    let current: ReturnType<typeof versionsIn> | undefined
    try {
      current = versionsIn(to)
    } catch {
      // Not a store this version reads: replace it.
    }
    if (current && sameDatasetVersions(current, manifest.datasets)) {
      io.say(`${to} already holds snapshot ${manifest.id}'s versions; nothing downloaded (--force downloads anyway)`)
      return 0
    }
  }
  await downloadSnapshot(location, manifest, to, {
    client,
    ...(io.signal ? { signal: io.signal } : {}),
    onProgress: (received, total) => io.progress.download(`${location.url} ${manifest.id}`, received, total),
  })
  io.progress.done()
  io.say(
    `pulled snapshot ${manifest.id} (published ${manifest.createdAt}) to ${to}: ${datasetCount(manifest)}, ${megabytes(manifest.sqliteBytes)}; size and sha256 checked`,
  )
  for (const line of describeDatasets(manifest)) io.say(line)
  return 0
}
