import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { pipeline, Transform, type Readable } from 'node:stream'
import {
  DatasetFileError,
  datasetFileContent,
  type DatasetFile,
  type JsonArrayContent,
  type StreamContent,
  type TabularContent,
} from '@allmenning/core/source'
import { delimitedRecords } from './delimited-records.js'
import { jsonArrayRecords, startsWithGzip } from './json-array-records.js'
import { defaultReadLimits, type ReadLimits } from './read-limits.js'
import { xlsxRecords } from './xlsx-records.js'
import { zipMembers } from './zip-members.js'

/** Bytes of the input files read so far, for progress. */
export interface ByteCounter {
  bytes: number
}

/** One stream of records with the content that reads them: a file, or one member of a zip. */
export type FilePart =
  | { kind: 'tabular'; name: string; content: TabularContent; batches: AsyncGenerator<string[][]> }
  | { kind: 'json'; name: string; content: JsonArrayContent | StreamContent; batches: AsyncGenerator<unknown[]> }

function counted(path: string, counter: ByteCounter): Readable {
  // 64 KiB reads: each chunk's records are mapped and written before the next, so they die
  // young. With 1 MiB chunks a batch of ~10,000 records outlived the young generation and was
  // promoted, and the old-generation collections that followed cost 2 s per million rows.
  const file = createReadStream(path, { highWaterMark: 64 * 1024 })
  // Counted as the reader takes each chunk, not with a 'data' listener: that would set the file
  // flowing before a reader that starts late (one that first imports its parser) is there, and
  // the chunks read meanwhile would be lost. A read error reaches the reader through pipeline.
  const count = new Transform({
    highWaterMark: 64 * 1024,
    transform(chunk: Buffer, _encoding, done) {
      counter.bytes += chunk.length
      done(null, chunk)
    },
  })
  pipeline(file, count, () => {})
  return count
}

/** Records of a stream format in batches of one: each may be large (a whole document). */
async function* oneByOne(records: AsyncIterable<unknown>): AsyncGenerator<unknown[]> {
  for await (const record of records) yield [record]
}

function tabular(name: string, content: TabularContent, input: Readable | string, limits: ReadLimits): FilePart {
  if (content.format.type === 'xlsx') {
    if (typeof input !== 'string')
      throw new DatasetFileError(`${name}: an XLSX workbook inside a zip archive is not supported`)
    return { kind: 'tabular', name, content, batches: xlsxRecords(input, content.format, name, limits) }
  }
  const stream = typeof input === 'string' ? createReadStream(input) : input
  return {
    kind: 'tabular',
    name,
    content,
    batches: delimitedRecords(stream, content.format, { name, maxRecordLength: limits.maxRecordLength }),
  }
}

/**
 * The record streams of one local file, as its declaration says to read it: the file itself,
 * or each named member of a zip archive (every one must be there). Each reader stops at the
 * {@link ReadLimits} with a `ReadLimitError` naming the file and the limit.
 *
 * @example
 * for (const file of dataset.files) for await (const part of fileParts(file, `/tmp/${file.name}`, counter)) for await (const batch of part.batches) rows += batch.length
 */
export async function* fileParts(
  declared: DatasetFile,
  path: string,
  counter: ByteCounter,
  limits: ReadLimits = defaultReadLimits,
): AsyncGenerator<FilePart> {
  const content = await datasetFileContent(declared)
  const size = (await stat(path)).size
  if (content.format.type === 'json-array') {
    const gzip = await startsWithGzip(path)
    const start = counter.bytes
    const source = { name: declared.name, limits, packed: () => counter.bytes - start }
    yield {
      kind: 'json',
      name: declared.name,
      content: content as JsonArrayContent,
      batches: jsonArrayRecords(counted(path, counter), gzip, source),
    }
    return
  }
  if (content.format.type === 'stream') {
    const stream = content as StreamContent
    yield {
      kind: 'json',
      name: declared.name,
      content: stream,
      batches: oneByOne(stream.records(counted(path, counter))),
    }
    return
  }
  if (content.format.type === 'zip') {
    const members = (content as { members: Record<string, TabularContent> }).members
    const wanted = Object.keys(members)
    const seen = new Set<string>()
    const start = counter.bytes
    for await (const member of zipMembers(path, wanted, declared.name, limits)) {
      seen.add(member.name)
      yield tabular(`${declared.name}/${member.name}`, members[member.name]!, await member.open(), limits)
      counter.bytes += member.compressedSize
    }
    counter.bytes = start + size
    const missing = wanted.filter((name) => !seen.has(name))
    if (missing.length > 0) throw new DatasetFileError(`${declared.name} lacks ${missing.join(' and ')}`)
    return
  }
  const tabularContent = content as TabularContent
  if (tabularContent.format.type === 'xlsx') {
    yield tabular(declared.name, tabularContent, path, limits)
    counter.bytes += size
    return
  }
  yield tabular(declared.name, tabularContent, counted(path, counter), limits)
}
