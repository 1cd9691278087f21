import { gunzipSync } from 'node:zlib'
import {
  datasetFileContent,
  type DatasetContent,
  type DatasetDefinition,
  type DatasetRow,
  type DatasetRowsOut,
  type TabularContent,
} from '@allmenning/core/source'

/**
 * One file of a dataset for the in-memory store, by the name the dataset declares (`file`):
 * either its bytes, for content the store can read as the import does (`stream`, read by the
 * dataset's own `records`, and `json-array`, gzip'd or not), or its records as the import's
 * reader yields them, for any content: a tabular file's cells, header first (a zip member's
 * named by `member`), a JSON array's elements, a stream's records. Delimited text and
 * workbooks are read from bytes only by the import of `@allmenning/datasets`.
 */
export type DatasetFileInput = (
  | { file: string; bytes: Uint8Array }
  | { file: string; records: readonly unknown[]; member?: string }
) & {
  /** The name the loaded version lists (a part's own name); `file` when absent. */
  name?: string
  /** The URL it was downloaded from; `null` (imported) when absent. */
  url?: string | null
}

/** A record the dataset's mapping refused: counted and skipped, as the import does. */
export interface DatasetFileSample {
  file: string
  record: number
  problem: string
}

/** What the files gave: rows by table, and the records read and refused. */
export interface DatasetFileRows {
  rows: Record<string, DatasetRow[]>
  records: number
  malformed: number
  samples: DatasetFileSample[]
}

type Mapper = (record: unknown, number: number) => DatasetRowsOut

function isTabular(content: DatasetContent): content is TabularContent {
  return content.format.type === 'delimited' || content.format.type === 'xlsx'
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes
}

/** The records of `bytes` for content the store reads itself. */
async function recordsOf(content: DatasetContent, bytes: Uint8Array, file: string): Promise<unknown[]> {
  if (content.format.type === 'stream') {
    const records: unknown[] = []
    for await (const record of (content as Extract<DatasetContent, { format: { type: 'stream' } }>).records(
      once(bytes),
    ))
      records.push(record)
    return records
  }
  if (content.format.type === 'json-array') {
    // gzip is told by its magic bytes, as the import tells it.
    const text = Buffer.from(bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8')
    const parsed: unknown = JSON.parse(text)
    if (!Array.isArray(parsed)) throw new TypeError(`${file} is not a JSON array`)
    return parsed
  }
  throw new TypeError(
    `${file} is ${content.format.type} content: give its records (cells, header first), not its bytes; ` +
      "reading delimited text, workbooks and zips is the import's (@allmenning/datasets)",
  )
}

/**
 * Reads `inputs` into rows the way `allmenning datasets import` does after reading the
 * bytes: each record through the dataset's own mapping (`rows(context)`), a tabular file's
 * first record as its header (cells trimmed), a record the mapping refuses counted as
 * malformed and skipped, a `DatasetFileError` stopping the read, and more than the dataset's
 * `maxMalformedShare` (half by default) of malformed records refused.
 *
 * @example
 * import type { DatasetDefinition } from '@allmenning/core/source'
 * declare const lovdataLaws: DatasetDefinition // its file is a tar.bz2 of XML, `stream` content
 * declare const archive: Uint8Array
 * const { rows, malformed } = await readDatasetFiles(lovdataLaws, [{ file: 'gjeldende-lover.tar.bz2', bytes: archive }])
 */
export async function readDatasetFiles(
  dataset: DatasetDefinition,
  inputs: readonly DatasetFileInput[],
): Promise<DatasetFileRows> {
  const rows: Record<string, DatasetRow[]> = Object.fromEntries(dataset.tables.map((table) => [table.name, []]))
  const samples: DatasetFileSample[] = []
  let records = 0
  let malformed = 0
  const add = (out: DatasetRowsOut) => {
    for (const { table, row } of out === null ? [] : Array.isArray(out) ? out : [out]) {
      const list = rows[table]
      if (!list) throw new TypeError(`Dataset ${dataset.id} has no table "${table}"`)
      list.push(row)
    }
  }
  for (const input of inputs) {
    const declared = dataset.files.find((file) => file.name === input.file)
    if (!declared) throw new TypeError(`Dataset ${dataset.id} declares no file "${input.file}"`)
    let content = await datasetFileContent(declared)
    let name = input.file
    if ('member' in input && input.member !== undefined) {
      if (content.format.type !== 'zip')
        throw new TypeError(`${input.file} is not a zip: it has no member ${input.member}`)
      const member = (content as Extract<DatasetContent, { format: { type: 'zip' } }>).members[input.member]
      if (!member) throw new TypeError(`${input.file} declares no member ${input.member}`)
      content = member
      name = `${input.file}/${input.member}`
    } else if (content.format.type === 'zip') {
      throw new TypeError(`${input.file} is a zip: give the records of each member, with \`member\``)
    }
    const given = 'records' in input ? [...input.records] : await recordsOf(content, input.bytes, input.file)
    const origin = input.url ?? input.name ?? input.file
    let mapper: Mapper | undefined
    if (!isTabular(content))
      mapper = (content as { rows: (context: object) => Mapper }).rows({ file: name, origin, header: [] })
    let number = 0
    for (const record of given) {
      if (!mapper) {
        const header = (record as string[]).map((cell) => cell.trim())
        mapper = (content as TabularContent).rows({ file: name, origin, header }) as Mapper
        continue
      }
      number++
      records++
      let out: DatasetRowsOut
      try {
        out = mapper(record, number)
      } catch (error) {
        if (error instanceof Error && error.name === 'DatasetFileError') throw error
        malformed++
        if (samples.length < 10)
          samples.push({ file: name, record: number, problem: error instanceof Error ? error.message : String(error) })
        continue
      }
      add(out)
    }
    if (!mapper) throw new TypeError(`${name} is empty: it has no header row`)
  }
  const share = dataset.maxMalformedShare ?? 0.5
  if (records > 0 && malformed / records > share) {
    throw new Error(
      `${malformed} of ${records} records are malformed (record ${samples[0]?.record} of ${samples[0]?.file}: ${samples[0]?.problem})`,
    )
  }
  return { rows, records, malformed, samples }
}
