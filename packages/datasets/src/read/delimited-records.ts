import type { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import type { DelimitedFormat } from '@allmenning/core'
import { decodeText } from './decode-text.js'

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
export async function* delimitedRecords(input: Readable, format: DelimitedFormat): AsyncGenerator<string[][]> {
  const text = decodeText(input, format.encodings ?? ['utf-8'])
  if (format.quoting === 'none') {
    yield* splitLines(text, format.delimiter)
    return
  }
  const parser = text.pipe(
    parse({
      delimiter: format.delimiter,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
    }),
  )
  text.on('error', (error) => parser.destroy(error))
  let batch: string[][] = []
  for await (const record of parser as AsyncIterable<string[]>) {
    batch.push(record)
    if (batch.length >= recordBatchSize) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}

async function* splitLines(text: Readable, delimiter: string): AsyncGenerator<string[][]> {
  let rest = ''
  for await (const chunk of text as AsyncIterable<string>) {
    const lines = (rest + chunk).split('\n')
    rest = lines.pop() ?? ''
    const batch: string[][] = []
    for (const line of lines) {
      const record = toRecord(line, delimiter)
      if (record) batch.push(record)
    }
    if (batch.length > 0) yield batch
  }
  const last = toRecord(rest, delimiter)
  if (last) yield [last]
}

function toRecord(line: string, delimiter: string): string[] | undefined {
  const clean = line.endsWith('\r') ? line.slice(0, -1) : line
  return clean.trim() === '' ? undefined : clean.split(delimiter)
}
