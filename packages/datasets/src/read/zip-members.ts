import type { Readable } from 'node:stream'
import type { Entry, ZipFile } from 'yauzl'
import { DatasetFileError } from '@allmenning/core/source'
import { defaultReadLimits, limitOptions, ReadLimitError, type ReadLimits } from './read-limits.js'
import { unpackedTooMuch } from './unpack-limit.js'

/** One member of a zip archive, opened for reading. */
export interface ZipMember {
  name: string
  compressedSize: number
  uncompressedSize: number
  open(): Promise<Readable>
}

/**
 * A zip archive opened to read its entries one at a time, yauzl loaded by the first archive
 * opened. One that cannot be opened is a `DatasetFileError` saying it `is not <what>`; one of
 * more members than `limits.maxMembers` is refused (and closed) before any entry is read.
 *
 * @example
 * const zip = await openArchive('cordis.zip', 'cordis.zip', defaultReadLimits, 'a zip archive', { autoClose: false })
 */
export async function openArchive(
  path: string,
  name: string,
  limits: ReadLimits,
  what: string,
  options: { autoClose?: boolean } = {},
): Promise<ZipFile> {
  const { default: yauzl } = await import('yauzl')
  let zip: ZipFile
  try {
    zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.open(path, { lazyEntries: true, ...options }, (error, file) => (error ? reject(error) : resolve(file))),
    )
  } catch (error) {
    throw new DatasetFileError(`is not ${what}: ${(error as Error).message}`)
  }
  if (zip.entryCount > limits.maxMembers) {
    zip.close()
    throw new ReadLimitError(
      `${name} has ${zip.entryCount.toLocaleString('en-US')} members, more than ${limits.maxMembers.toLocaleString('en-US')} (the most an archive may have; raise it with ${limitOptions.maxMembers})`,
      'maxMembers',
    )
  }
  return zip
}

/**
 * The members of a zip archive whose base names are in `wanted`, one at a time (yauzl reads
 * the central directory, then each member's stream on demand, so nothing is extracted to disk).
 * An archive of more members than `limits.maxMembers`, or a wanted member whose declared size
 * goes past the unpacking limits, fails before anything is unpacked; yauzl checks that a
 * member unpacks to exactly its declared size.
 *
 * @example
 * for await (const member of zipMembers('cordis-HORIZONprojects-csv.zip', ['project.csv'])) streams.push(await member.open())
 */
export async function* zipMembers(
  path: string,
  wanted: string[],
  name = path,
  limits: ReadLimits = defaultReadLimits,
): AsyncGenerator<ZipMember> {
  const zip = await openArchive(path, name, limits, 'a zip archive', { autoClose: false })
  try {
    for (;;) {
      const entry = await new Promise<Entry | undefined>((resolve, reject) => {
        const onEntry = (e: Entry) => finish(() => resolve(e))
        const onEnd = () => finish(() => resolve(undefined))
        const onError = (error: Error) =>
          finish(() => reject(new DatasetFileError(`is a damaged zip archive: ${error.message}`)))
        const finish = (then: () => void) => {
          zip.off('entry', onEntry)
          zip.off('end', onEnd)
          zip.off('error', onError)
          then()
        }
        zip.once('entry', onEntry)
        zip.once('end', onEnd)
        zip.once('error', onError)
        zip.readEntry()
      })
      if (!entry) return
      const base = entry.fileName.split('/').pop() ?? entry.fileName
      if (entry.fileName.endsWith('/') || !wanted.includes(base)) continue
      const tooMuch = unpackedTooMuch(`${name}/${base}`, entry.uncompressedSize, entry.compressedSize, limits)
      if (tooMuch) throw tooMuch
      yield {
        name: base,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
        open: () =>
          new Promise<Readable>((resolve, reject) =>
            zip.openReadStream(entry, (error, stream) =>
              error ? reject(new DatasetFileError(`member ${base} cannot be read: ${error.message}`)) : resolve(stream),
            ),
          ),
      }
    }
  } finally {
    zip.close()
  }
}
