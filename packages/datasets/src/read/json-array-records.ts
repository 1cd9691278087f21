import { open } from 'node:fs/promises'
import { createGunzip } from 'node:zlib'
import { Transform, type Readable } from 'node:stream'
import { DatasetFileError } from '@allmenning/core/source'
import { defaultReadLimits, describeSize, limitOptions, ReadLimitError, type ReadLimits } from './read-limits.js'
import { limitUnpacked } from './unpack-limit.js'

/** Where a JSON array comes from, for {@link jsonArrayRecords}. */
export interface JsonSource {
  /** The file's name in messages. */
  name: string
  limits: ReadLimits
  /** Bytes of the file read so far (compressed, when it is gzip), for the unpacking ratio. */
  packed: () => number
}

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
export async function* jsonArrayRecords(
  input: Readable,
  gzip: boolean,
  source: JsonSource = { name: 'the file', limits: defaultReadLimits, packed: () => 0 },
): AsyncGenerator<unknown[]> {
  // stream-json is loaded by the first JSON file read: the input waits, paused, meanwhile.
  const { default: StreamArray } = await import('stream-json/streamers/StreamArray.js')
  // A read that failed before this reader started has no listener left to tell: it ends here.
  if (input.errored) throw input.errored
  const elements = StreamArray.withParser()
  let broken: Error | undefined
  const fail = (error: Error) => {
    broken ??= error
    elements.destroy(broken)
  }
  // Bytes handed to the parser since the last element came out: an element (or one string in
  // it) past the longest record allowed stops the read before the parser has assembled it.
  let sinceElement = 0
  let element = 0
  const { maxRecordLength } = source.limits
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sinceElement += chunk.length
      if (sinceElement <= maxRecordLength) return done(null, chunk)
      done(
        new ReadLimitError(
          `element ${(element + 1).toLocaleString('en-US')} of ${source.name} is longer than ${describeSize(maxRecordLength)} ` +
            `(the longest record read; raise it with ${limitOptions.maxRecordLength})`,
          'maxRecordLength',
        ),
      )
    },
  })
  measure.on('error', fail)
  if (gzip) {
    const gunzip = createGunzip()
    gunzip.on('error', (error) => fail(new DatasetFileError(`is not valid gzip: ${error.message}`)))
    const limit = limitUnpacked(source.name, source.limits, source.packed)
    limit.on('error', fail)
    input.pipe(gunzip).pipe(limit).pipe(measure).pipe(elements)
  } else {
    input.pipe(measure).pipe(elements)
  }
  input.on('error', (error) => elements.destroy(error))
  let batch: unknown[] = []
  try {
    for await (const item of elements as AsyncIterable<{ key: number; value: unknown }>) {
      sinceElement = 0
      element++
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
