import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { constants, createGzip } from 'node:zlib'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'

/** One member of a zip written by {@link writeZip}: its name and its content, in pieces. */
export interface ZipEntry {
  name: string
  /** The content, produced piece by piece, so a member of a gigabyte needs no gigabyte of memory. */
  pieces: () => Iterable<Uint8Array>
  /** Stored without compression (for many small members), instead of deflated. */
  stored?: boolean
}

/**
 * Writes a zip archive to `path` as it deflates each member, so a member that unpacks to a
 * gigabyte (a compression bomb) is written in little memory and takes a megabyte on disk.
 *
 * @example
 * await writeZip('bomb.zip', [{ name: 'project.csv', pieces: () => repeat(Buffer.alloc(1 << 20, 97), 1024) }])
 */
export async function writeZip(path: string, entries: ZipEntry[]): Promise<void> {
  const out = createWriteStream(path)
  let failure: Error | null = null
  const pending: Uint8Array[] = []
  const zip = new Zip((error, chunk) => {
    if (error) failure = error
    else pending.push(chunk)
  })
  const flush = async () => {
    for (const chunk of pending.splice(0)) if (!out.write(chunk)) await once(out, 'drain')
  }
  for (const entry of entries) {
    const file = entry.stored ? new ZipPassThrough(entry.name) : new ZipDeflate(entry.name, { level: 9 })
    zip.add(file)
    let previous: Uint8Array | undefined
    for (const piece of entry.pieces()) {
      if (previous) file.push(previous)
      previous = piece
      await flush()
    }
    file.push(previous ?? new Uint8Array(0), true)
    await flush()
  }
  zip.end()
  await flush()
  out.end()
  await once(out, 'finish')
  if (failure) throw failure
}

/** `piece` `times` times over: the content of a bomb. */
export function* repeat(piece: Uint8Array, times: number): Iterable<Uint8Array> {
  for (let i = 0; i < times; i++) yield piece
}

/**
 * Writes `pieces` gzip-compressed to `path`, as it compresses.
 *
 * @example
 * await writeGzip('roller.json.gz', [Buffer.from('['), ...repeat(Buffer.from('{"a":1},'), 1e6), Buffer.from('{}]')])
 */
export async function writeGzip(path: string, pieces: Iterable<Uint8Array>): Promise<void> {
  const gzip = createGzip({ level: constants.Z_BEST_COMPRESSION })
  const out = createWriteStream(path)
  gzip.pipe(out)
  for (const piece of pieces) if (!gzip.write(piece)) await once(gzip, 'drain')
  gzip.end()
  await once(out, 'finish')
}
