import type { DatasetDerivedOrigin } from './dataset-derivation.js'
import type { DatasetValue } from './dataset-value.js'

export type { DatasetValue } from './dataset-value.js'

/** One row of a dataset table, by column name. */
export type DatasetRow = Record<string, DatasetValue>

/** The type of a column: SQL's TEXT, INTEGER and REAL, which every store can hold. */
export type DatasetColumnType = 'text' | 'integer' | 'real'

/** One table a dataset fills. */
export interface DatasetTable {
  /** Name within the dataset: lower-case letters, digits and `_`. */
  name: string
  /** Columns in order, with their types. */
  columns: Record<string, DatasetColumnType>
  /** Indexes, each a list of columns; what the operations look rows up by. */
  indexes?: string[][]
  /**
   * Rows with the same values in these columns are one row. Columns named in `sum` are added
   * up; every other column keeps the value of the first such row (`keep: 'first'`, the
   * default) or of the last (`keep: 'last'`, for a file that corrects an earlier one).
   */
  key?: string[]
  sum?: string[]
  keep?: 'first' | 'last'
  /**
   * A full-text index (SQLite FTS5, tokenizer `unicode61 remove_diacritics 0`, so æ, ø and å
   * stay letters of their own) over these text columns, searched with `reader.search`.
   * `weights` ranks a match in one column above another (default 1 each).
   */
  fullText?: { columns: string[]; weights?: number[] }
}

/** A row a file gives, and the table it goes to. */
export interface DatasetRowOutput {
  table: string
  row: DatasetRow
}

/** What a row reader returns for one record: no row, one, or several (for several tables). */
export type DatasetRowsOut = DatasetRowOutput | DatasetRowOutput[] | null

/** Where a record was read, for the reader and for error messages. */
export interface DatasetFileContext {
  /** The file's name as the dataset declares it, with the zip member after a slash. */
  file: string
  /** The file's URL when it was downloaded, its local path when it was imported. */
  origin: string
  /** The header row's cells of a tabular file (after any BOM is removed), `[]` otherwise. */
  header: string[]
}

/**
 * Delimited text. With `quoting: 'rfc4180'` a quoted field may hold delimiters, quotes and
 * line breaks; with `'none'` a quote is an ordinary character and each line is one record
 * (for files that never quote, where a stray `"` must not swallow the lines after it).
 */
export interface DelimitedFormat {
  type: 'delimited'
  delimiter: string
  quoting: 'rfc4180' | 'none'
  /**
   * Character sets to try, in order: the first that decodes the file's first megabyte without
   * an invalid sequence is used. A UTF-8 byte-order mark always means UTF-8. Default UTF-8.
   */
  encodings?: Array<'utf-8' | 'windows-1252' | 'iso-8859-1'>
}

/** The first sheet (or the named or numbered one) of an Office Open XML workbook. */
export interface XlsxFormat {
  type: 'xlsx'
  sheet?: string | number
}

/** Rows of a table: delimited text or a spreadsheet, with a header row. */
export interface TabularContent {
  format: DelimitedFormat | XlsxFormat
  /**
   * Called once per file with its header; returns the function that turns one record's cells
   * (strings; spreadsheet dates as `YYYY-MM-DD`) into rows. Throw {@link DatasetFileError}
   * when the header shows this is not the expected file, {@link DatasetRowError} for a
   * malformed record (it is counted and the import goes on).
   */
  rows(context: DatasetFileContext): (cells: string[], record: number) => DatasetRowsOut
}

/** A JSON document whose root is an array, streamed one element at a time; gzip is detected by its magic bytes. */
export interface JsonArrayContent {
  format: { type: 'json-array' }
  rows(context: DatasetFileContext): (element: unknown, record: number) => DatasetRowsOut
}

/**
 * Any other format: `records` turns the file's bytes into records (one parsed document of an
 * archive, say), and `rows` turns each record into rows, as for a JSON array.
 */
export interface StreamContent {
  format: { type: 'stream' }
  records(input: AsyncIterable<Uint8Array>): AsyncIterable<unknown>
  rows(context: DatasetFileContext): (record: unknown, number: number) => DatasetRowsOut
}

/** A zip archive; each named member is read as tabular content. Other members are skipped. */
export interface ZipContent {
  format: { type: 'zip' }
  members: Record<string, TabularContent>
}

/** What a file holds and how its records become rows. */
export type DatasetContent = TabularContent | JsonArrayContent | ZipContent | StreamContent

/**
 * A file's content as a definition gives it: the {@link DatasetContent} itself, or a function
 * that loads it, from a module of its own. Only an import reads a file's content, so with the
 * second form a gateway that serves a loaded store (a Lambda following a snapshot, say) neither
 * loads nor parses the readers' code. Read it with {@link datasetFileContent}.
 *
 * @example
 * // not compiled: grants-reader.ts is the plugin's own module, exporting the file's DatasetContent
 * content: () => import('./grants-reader.js').then((reader) => reader.grantsContent)
 */
export type DatasetFileContent = DatasetContent | (() => Promise<DatasetContent>)

/** One file of a dataset. */
export interface DatasetFile {
  /** Names the file in messages and in the dataset store's catalog of loaded versions, e.g. `Tildelinger.csv`. */
  name: string
  /** Where `allmenning datasets sync` downloads it from. */
  url?: string
  /**
   * For files whose addresses change: a page whose links matching `pattern` are the files,
   * read in the page's order or the one `order` gives (later files override earlier ones
   * where a table keeps the last row of a key).
   */
  discover?: { page: string; pattern: RegExp; order?: (urls: string[]) => string[] }
  /**
   * Request headers for the download, e.g. an `accept` the publisher requires. The download
   * always sends its own `user-agent` and conditional headers.
   */
  headers?: Record<string, string>
  /**
   * The publisher's date for the file when its download carries no Last-Modified (Lovdata's
   * archives do not; their date is in a listing): an ISO date or null. `sync` asks for it
   * before downloading, and when it is the date the loaded version was listed at, the file is
   * not downloaded. Not asked for a file downloaded from a mirror, whose own validators count.
   * A failure here only leaves the date unknown.
   */
  publishedAt?: (signal?: AbortSignal) => Promise<string | null>
  content: DatasetFileContent
}

/** Where a dataset comes from. */
export type DatasetOrigin =
  /** Published for download: `sync` fetches the files' URLs. */
  | { kind: 'download'; page: string }
  /** Ordered from the publisher and delivered by e-mail: `import` loads a local file. */
  | { kind: 'order'; page: string; instructions: string }
  /** Made here from other loaded datasets by asking an upstream, a bounded run at a time: `sync` runs it. */
  | DatasetDerivedOrigin

/** How often the publisher changes the data; tells a reader how old an answer may be. */
export type DatasetSchedule = 'daily' | 'weekly' | 'monthly' | 'yearly' | 'irregular'

/** The definition of one dataset: a published bulk file and the tables it fills. */
export interface DatasetDefinition {
  /** Lower-case id, `[a-z][a-z0-9_]*`; what the command line takes. */
  id: string
  title: string
  description: string
  /** Who publishes the file; `_provenance.data.source` of answers made from it. */
  publisher: string
  /** Licence of the data, as the publisher states it. */
  license: string
  /** The attribution the licence asks for, shown with every answer. */
  attribution: string
  origin: DatasetOrigin
  /** How often the publisher changes it. */
  changes: DatasetSchedule
  files: DatasetFile[]
  tables: DatasetTable[]
  /**
   * Share of malformed records (0..1) above which an import stops instead of loading what it
   * could read; 0.5 by default. A file that is mostly malformed is not the file it claims to be.
   */
  maxMalformedShare?: number
}

const name = /^[a-z][a-z0-9_]*$/

/**
 * A record that cannot be read as a row. The import counts it, reports it with its number,
 * and goes on.
 *
 * @example
 * if (!/^\d{9}$/.test(orgNr)) throw new DatasetRowError(`Orgnr "${orgNr}" is not 9 digits`)
 */
export class DatasetRowError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DatasetRowError'
  }
}

/**
 * The file is not the one the dataset expects (a header without its columns, an HTML page
 * instead of a CSV file). The import stops and the loaded generation keeps serving.
 *
 * @example
 * if (!header.includes('Orgnr')) throw new DatasetFileError('has no "Orgnr" column; is this Aksjonærregisteret?')
 */
export class DatasetFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DatasetFileError'
  }
}

const formats = new Set(['delimited', 'xlsx', 'json-array', 'stream', 'zip'])

/** Why `content` cannot be read, or undefined: a format this version does not read, a zip that names no member. */
function contentProblem(content: DatasetContent): string | undefined {
  const type: unknown = (content as { format?: { type?: unknown } } | undefined)?.format?.type
  if (typeof type !== 'string' || !formats.has(type)) return `has no format this version reads (${String(type)})`
  if (type === 'zip' && Object.keys((content as ZipContent).members ?? {}).length === 0)
    return 'is a zip that names no member'
  return undefined
}

/**
 * The content of one of a dataset's files, loaded when the definition gives a function for
 * it, and checked as `defineDataset` checks content given at once.
 *
 * @example
 * const content = await datasetFileContent(dataset.files[0]!) // content.format.type === 'delimited'
 */
export async function datasetFileContent(file: DatasetFile): Promise<DatasetContent> {
  const content = typeof file.content === 'function' ? await file.content() : file.content
  const problem = contentProblem(content)
  if (problem) throw new TypeError(`The content of dataset file ${file.name} ${problem}`)
  return content
}

/**
 * Defines a dataset: a bulk file a source's operations answer from once it is loaded into
 * a dataset store. A source lists it in `defineSource({ datasets })`; an operation reads it
 * with `ctx.dataset(handle)`. The definition is plain data and functions, so the same
 * object drives the command line that loads it and the operations that read it.
 *
 * @example
 * export const grants = defineDataset({
 *   id: 'grants', title: 'Grants', description: 'Every grant since 2013.',
 *   publisher: 'Example Agency', license: 'NLOD 2.0', attribution: 'Contains data from Example Agency (NLOD 2.0)',
 *   origin: { kind: 'download', page: 'https://example.no/grants' }, changes: 'daily',
 *   tables: [{ name: 'grants', columns: { org_nr: 'text', amount: 'real' }, indexes: [['org_nr']] }],
 *   files: [{
 *     name: 'grants.csv', url: 'https://example.no/grants.csv',
 *     content: {
 *       format: { type: 'delimited', delimiter: ';', quoting: 'none', encodings: ['utf-8', 'windows-1252'] },
 *       rows: ({ header }) => {
 *         const org = header.indexOf('Org-nr'), amount = header.indexOf('Beløp')
 *         return (cells) => ({ table: 'grants', row: { org_nr: cells[org] ?? null, amount: Number(cells[amount]) } })
 *       },
 *     },
 *   }],
 * })
 */
export function defineDataset(definition: DatasetDefinition): DatasetDefinition {
  if (!name.test(definition.id)) {
    throw new TypeError(
      `Dataset id "${definition.id}" must be lower-case letters, digits or "_", starting with a letter`,
    )
  }
  if (definition.files.length === 0) throw new TypeError(`Dataset ${definition.id} names no file`)
  if (definition.tables.length === 0) throw new TypeError(`Dataset ${definition.id} fills no table`)
  const tables = new Set<string>()
  for (const table of definition.tables) {
    if (!name.test(table.name))
      throw new TypeError(`Dataset ${definition.id}: table name "${table.name}" must match ${name}`)
    if (tables.has(table.name)) throw new TypeError(`Dataset ${definition.id} defines table ${table.name} twice`)
    tables.add(table.name)
    const columns = Object.keys(table.columns)
    if (columns.length === 0) throw new TypeError(`Dataset ${definition.id}: table ${table.name} has no column`)
    for (const column of columns) {
      if (!name.test(column))
        throw new TypeError(`Dataset ${definition.id}: column "${column}" of ${table.name} must match ${name}`)
    }
    const named = [
      ...(table.indexes ?? []).flat(),
      ...(table.key ?? []),
      ...(table.sum ?? []),
      ...(table.fullText?.columns ?? []),
    ]
    if (
      table.fullText &&
      (table.fullText.columns.length === 0 ||
        (table.fullText.weights && table.fullText.weights.length !== table.fullText.columns.length))
    ) {
      throw new TypeError(`Dataset ${definition.id}: table ${table.name} needs one weight per full-text column`)
    }
    for (const column of named) {
      if (!(column in table.columns))
        throw new TypeError(
          `Dataset ${definition.id}: table ${table.name} names column "${column}", which it does not have`,
        )
    }
    if (table.sum?.length && !table.key?.length)
      throw new TypeError(`Dataset ${definition.id}: table ${table.name} sums columns but has no key`)
    for (const column of table.sum ?? []) {
      if (table.columns[column] === 'text')
        throw new TypeError(`Dataset ${definition.id}: table ${table.name} cannot sum text column ${column}`)
    }
  }
  const files = new Set<string>()
  for (const file of definition.files) {
    if (files.has(file.name)) throw new TypeError(`Dataset ${definition.id} names file ${file.name} twice`)
    files.add(file.name)
    // Content given as a function is checked when it is loaded, by datasetFileContent.
    const problem = typeof file.content === 'function' ? undefined : contentProblem(file.content)
    if (problem) throw new TypeError(`Dataset ${definition.id}: ${file.name} ${problem}`)
    if (definition.origin.kind === 'download' && !file.url && !file.discover) {
      throw new TypeError(
        `Dataset ${definition.id}: file ${file.name} has neither url nor discover, so it cannot be downloaded`,
      )
    }
  }
  const { origin } = definition
  if (origin.kind === 'derived') {
    if (origin.from.length === 0) throw new TypeError(`Dataset ${definition.id} is derived from no dataset`)
    if (origin.from.includes(definition.id))
      throw new TypeError(`Dataset ${definition.id} cannot be derived from itself`)
    for (const [field, value] of [
      ['budget', origin.budget],
      ['requestsPerSecond', origin.requestsPerSecond],
    ] as const) {
      if (!(value > 0 && Number.isFinite(value)))
        throw new TypeError(`Dataset ${definition.id}: ${field} must be a positive number (got ${value})`)
    }
    if (!Number.isInteger(origin.budget))
      throw new TypeError(`Dataset ${definition.id}: budget must be a whole number of requests (got ${origin.budget})`)
  }
  const share = definition.maxMalformedShare
  if (share !== undefined && !(share >= 0 && share <= 1))
    throw new TypeError(`Dataset ${definition.id}: maxMalformedShare must be within 0..1`)
  return definition
}
