import type { Readable } from 'node:stream'
import yauzl from 'yauzl'
import { DatasetFileError } from '@allmenning/core'

/** One member of a zip archive, opened for reading. */
export interface ZipMember {
  name: string
  compressedSize: number
  open(): Promise<Readable>
}

/**
 * The members of a zip archive whose base names are in `wanted`, one at a time (yauzl reads
 * the central directory, then each member's stream on demand, so nothing is extracted to disk).
 *
 * @example
 * for await (const member of zipMembers('cordis-HORIZONprojects-csv.zip', ['project.csv'])) read(await member.open())
 */
export async function* zipMembers(path: string, wanted: string[]): AsyncGenerator<ZipMember> {
  let zip: yauzl.ZipFile
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) => (error ? reject(error) : resolve(file))),
    )
  } catch (error) {
    throw new DatasetFileError(`is not a zip archive: ${(error as Error).message}`)
  }
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => finish(() => resolve(e))
        const onEnd = () => finish(() => resolve(undefined))
        const onError = (error: Error) => finish(() => reject(new DatasetFileError(`is a damaged zip archive: ${error.message}`)))
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
      yield {
        name: base,
        compressedSize: entry.compressedSize,
        open: () =>
          new Promise<Readable>((resolve, reject) =>
            zip.openReadStream(entry, (error, stream) => (error ? reject(new DatasetFileError(`member ${base} cannot be read: ${error.message}`)) : resolve(stream))),
          ),
      }
    }
  } finally {
    zip.close()
  }
}
