import type { Readable } from 'node:stream'
import type { DelimitedFormat } from '@allmenning/core/source'
import { decodeText } from './decode-text.js'
import { defaultReadLimits, describeLength, limitOptions, ReadLimitError } from './read-limits.js'

/** Where the records come from and how long one may be, for {@link delimitedRecords}. */
export interface RecordSource {
  /** The file's name in messages (`cordis.zip/project.csv`). */
  name: string
  /** Longest record in characters; see `ReadLimits.maxRecordLength`. */
  maxRecordLength: number
}

/** The error for a record past the limit, naming its line and file. */
function tooLong(line: number, source: RecordSource): ReadLimitError {
  return new ReadLimitError(
    `line ${line.toLocaleString('en-US')} of ${source.name} is longer than ${describeLength(source.maxRecordLength)} ` +
      `(the longest record read; raise it with ${limitOptions.maxRecordLength})`,
    'maxRecordLength',
  )
}

/** Records handed on together, so the per-record cost of the pipeline stays low. */
export const recordBatchSize = 2000

/**
 * The records of a delimited text file, in batches; the first record is the header.
 * Unquoted files are split line by line by hand: a stray `"` in them is an ordinary character
 * (a name such as `"NORRSKEN MUTUAL HOLDING LTD (PUBL`), which a CSV parser would read as the
 * start of a field running to the end of the file. Quoted files go through csv-parse, which
 * handles quoted delimiters, doubled quotes and line breaks inside fields.
 *
 * @example
 * for await (const batch of delimitedRecords(createReadStream(path), { type: 'delimited', delimiter: ';', quoting: 'none' })) count += batch.length
 */
export async function* delimitedRecords(
  input: Readable,
  format: DelimitedFormat,
  source: RecordSource = { name: 'the file', maxRecordLength: defaultReadLimits.maxRecordLength },
): AsyncGenerator<string[][]> {
  // csv-parse is loaded by the first quoted file, before the text starts: not by every process
  // that imports the package only to serve its datasets.
  const parse = format.quoting === 'none' ? undefined : (await import('csv-parse')).parse
  // A read that failed before this reader started has no listener left to tell: it ends here.
  if (input.errored) throw input.errored
  const text = decodeText(input, format.encodings ?? ['utf-8'])
  if (parse === undefined) {
    try {
      yield* splitLines(text, format.delimiter, source)
    } finally {
      // A read stopped early (a limit, a consumer's break) lets go of the file too.
      input.destroy()
    }
    return
  }
  const parser = text.pipe(
    parse({
      delimiter: format.delimiter,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      max_record_size: source.maxRecordLength,
    }),
  )
  text.on('error', (error) => parser.destroy(error))
  let batch: string[][] = []
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      batch.push(record)
      if (batch.length >= recordBatchSize) {
        yield batch
        batch = []
      }
    }
  } catch (error) {
    const { code, lines } = error as { code?: string; lines?: number }
    if (code === 'CSV_MAX_RECORD_SIZE') throw tooLong(lines ?? 0, source)
    throw error
  } finally {
    input.destroy()
  }
  if (batch.length > 0) yield batch
}

/**
 * Lines split by hand. The line still open at the end of a chunk is carried into the next; once
 * it is longer than the limit the read stops, before the line is whole, so carrying it costs
 * at most a few copies of the limit.
 */
async function* splitLines(text: Readable, delimiter: string, source: RecordSource): AsyncGenerator<string[][]> {
  let rest = ''
  let line = 1
  try {
    for await (const chunk of text as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      const batch: string[][] = []
      for (const one of lines) {
        if (one.length > source.maxRecordLength) throw tooLong(line, source)
        const record = toRecord(one, delimiter)
        if (record) batch.push(record)
        line++
      }
      if (rest.length > source.maxRecordLength) throw tooLong(line, source)
      if (batch.length > 0) yield batch
    }
  } finally {
    text.destroy()
  }
  const last = toRecord(rest, delimiter)
  if (last) yield [last]
}

function toRecord(line: string, delimiter: string): string[] | undefined {
  const clean = line.endsWith('\r') ? line.slice(0, -1) : line
  return clean.trim() === '' ? undefined : clean.split(delimiter)
}
