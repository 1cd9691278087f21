import { open } from 'node:fs/promises'
import { createGunzip } from 'node:zlib'
import type { Readable } from 'node:stream'
import StreamArray from 'stream-json/streamers/StreamArray.js'
import { DatasetFileError } from '@allmenning/core'

const elementBatchSize = 500

/**
 * Whether a file starts with gzip's magic bytes (`1f 8b`). Publishers' names and content types
 * for such files disagree ("zippet JSON", `application/json`), so the bytes decide.
 *
 * @example
 * await startsWithGzip('totalbestand') // true for Brønnøysund's roles file
 */
export async function startsWithGzip(path: string): Promise<boolean> {
  const file = await open(path, 'r')
  try {
    const start = Buffer.alloc(2)
    const { bytesRead } = await file.read(start, 0, 2, 0)
    return bytesRead === 2 && start[0] === 0x1f && start[1] === 0x8b
  } finally {
    await file.close()
  }
}

/**
 * The elements of a JSON document whose root is an array, in batches, parsed as they stream
 * in (stream-json), so a file of a gigabyte is never held in memory. `gzip` undoes gzip first.
 *
 * @example
 * for await (const batch of jsonArrayRecords(createReadStream(path), await startsWithGzip(path))) count += batch.length
 */
export async function* jsonArrayRecords(input: Readable, gzip: boolean): AsyncGenerator<unknown[]> {
  const elements = StreamArray.withParser()
  let broken: DatasetFileError | undefined
  if (gzip) {
    const gunzip = createGunzip()
    gunzip.on('error', (error) => {
      broken = new DatasetFileError(`is not valid gzip: ${error.message}`)
      elements.destroy(broken)
    })
    input.pipe(gunzip).pipe(elements)
  } else {
    input.pipe(elements)
  }
  input.on('error', (error) => elements.destroy(error))
  let batch: unknown[] = []
  try {
    for await (const item of elements as AsyncIterable<{ key: number; value: unknown }>) {
      batch.push(item.value)
      if (batch.length >= elementBatchSize) {
        yield batch
        batch = []
      }
    }
  } catch (error) {
    if (broken) throw broken
    if ((error as NodeJS.ErrnoException).code) throw error
    throw new DatasetFileError(`is not a JSON array: ${(error as Error).message}`)
  } finally {
    input.destroy()
  }
  if (batch.length > 0) yield batch
}
