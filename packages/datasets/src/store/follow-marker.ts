import { dirname, join } from 'node:path'

// Taken from process.getBuiltinModule, not imported: an ESM import of node:fs reads every export,
// and its stream getters load Node's stream modules, a few ms of every cold start.
const { existsSync, readFileSync, writeFileSync } = process.getBuiltinModule('node:fs')

/** The file that marks a directory as a follower's: what it follows, so an import there is refused. */
const markerName = 'following.json'

/** Marks `directory` as holding the snapshots of `url`. */
export function writeFollowMarker(directory: string, url: string): void {
  writeFileSync(join(directory, markerName), `${JSON.stringify({ following: url })}\n`)
}

/**
 * Refuses to write into a directory a store follows a published snapshot in: its files are
 * replaced by the next snapshot, so an import there would be lost (or would tear the file
 * being served). Imports belong where the snapshot is published.
 *
 * @example
 * refuseImportIntoFollower('/tmp/allmenning/allmenning.sqlite')
 * // Error: /tmp/allmenning holds a copy of the snapshot s3://bucket/datasets, which …
 */
export function refuseImportIntoFollower(storePath: string): void {
  const marker = join(dirname(storePath), markerName)
  if (!existsSync(marker)) return
  let url = 'a published snapshot'
  try {
    url = (JSON.parse(readFileSync(marker, 'utf8')) as { following?: string }).following ?? url
  } catch {
    // A marker that cannot be read still marks the directory.
  }
  throw new Error(
    `${dirname(storePath)} holds a copy of the snapshot ${url}, which a dataset store follows read-only: import where the snapshot is published (npx allmenning datasets sync --publish ${url}), not into the follower`,
  )
}
