import type { DatasetValue } from '@allmenning/core/source'

/**
 * Rows of a dataset packed into one ArrayBuffer, so the thread that reads a file can hand them
 * to the thread that writes SQLite by transfer: no copy, and no object or string per row on
 * either side until the writer binds the values. Layout, in order:
 *
 * - a header of three 32-bit counts: rows, values, text characters;
 * - per row, the index of its table (one byte);
 * - per value, a tag (one byte: 0 null, 1 number, 2 text) and a 64-bit float (the number, or
 *   the text's length in UTF-16 code units);
 * - the text of every text value, one after the other, as UTF-16 code units, which the writer
 *   turns into one string per batch and slices.
 *
 * A batch grows when a row does not fit, so a row is never split.
 *
 * @example
 * const batch = createRowBatch([['orgnr', 'name']])
 * batch.add(0, { orgnr: '914778271', name: 'Equinor ASA' })
 * const buffer = batch.take()           // transfer it
 * readRowBatch(buffer, widths, (table, values) => writer.addValues(table, values))
 */
export interface RowBatch {
  /** Appends one row of table number `table`, its values in the table's column order. */
  add(table: number, row: Record<string, DatasetValue>): void
  readonly rows: number
  /** How full the fullest region (rows, values, text) is, from 0 to 1. */
  readonly fill: number
  /** Gives up the buffer (to transfer it) and starts afresh in `next`, or in a new buffer. */
  take(next?: ArrayBuffer): ArrayBuffer
}

const headerBytes = 16
const tagNull = 0
const tagNumber = 1
const tagText = 2

/** Where each region of a batch of `size` bytes begins, with room for `rowCapacity` rows. */
function regions(size: number) {
  // Sized for rows of about ten values of about ten characters: 8 + 1 + 20 bytes a value.
  const rowCapacity = Math.floor(size / 320)
  const valueCapacity = rowCapacity * 12
  const tags = headerBytes + rowCapacity
  const numbers = Math.ceil((tags + valueCapacity) / 8) * 8
  const text = numbers + valueCapacity * 8
  return { rowCapacity, valueCapacity, tags, numbers, text, textCapacity: Math.floor((size - text) / 2) }
}

/** Tables a row batch can name: a row's table is one byte. */
export const rowBatchTables = 256

/**
 * Starts a batch of rows for tables whose columns are `columns[table]`, in a buffer of
 * `size` bytes (grown when a row does not fit).
 */
export function createRowBatch(columns: string[][], size = 1 << 19): RowBatch {
  let buffer!: ArrayBuffer
  let layout!: ReturnType<typeof regions>
  let header!: Int32Array
  let tableOf!: Uint8Array
  let tags!: Uint8Array
  let numbers!: Float64Array
  let text!: Uint16Array
  let rows = 0
  let values = 0
  let chars = 0

  const use = (next: ArrayBuffer) => {
    buffer = next
    layout = regions(next.byteLength)
    header = new Int32Array(buffer, 0, 3)
    tableOf = new Uint8Array(buffer, 12, layout.rowCapacity)
    tags = new Uint8Array(buffer, layout.tags, layout.valueCapacity)
    numbers = new Float64Array(buffer, layout.numbers, layout.valueCapacity)
    text = new Uint16Array(buffer, layout.text, layout.textCapacity)
  }
  use(new ArrayBuffer(size))
  const grow = (needValues: number, needChars: number) => {
    const old = { tableOf, tags, numbers, text }
    let size = buffer.byteLength * 2
    while (
      regions(size).valueCapacity < values + needValues ||
      regions(size).textCapacity < chars + needChars ||
      regions(size).rowCapacity <= rows
    )
      size *= 2
    use(new ArrayBuffer(size))
    tableOf.set(old.tableOf.subarray(0, rows))
    tags.set(old.tags.subarray(0, values))
    numbers.set(old.numbers.subarray(0, values))
    text.set(old.text.subarray(0, chars))
  }

  return {
    add(table, row) {
      const names = columns[table]!
      let needChars = 0
      for (let i = 0; i < names.length; i++) {
        const value = row[names[i]!]
        if (typeof value === 'string') needChars += value.length
      }
      if (
        rows >= layout.rowCapacity ||
        values + names.length > layout.valueCapacity ||
        chars + needChars > layout.textCapacity
      )
        grow(names.length, needChars)
      tableOf[rows++] = table
      for (let i = 0; i < names.length; i++) {
        const value = row[names[i]!]
        if (typeof value === 'string') {
          tags[values] = tagText
          numbers[values++] = value.length
          for (let c = 0; c < value.length; c++) text[chars++] = value.charCodeAt(c)
        } else if (typeof value === 'number') {
          tags[values] = tagNumber
          numbers[values++] = value
        } else {
          tags[values++] = tagNull
        }
      }
    },
    get rows() {
      return rows
    },
    get fill() {
      return Math.max(rows / layout.rowCapacity, values / layout.valueCapacity, chars / layout.textCapacity)
    },
    take(next) {
      header[0] = rows
      header[1] = values
      header[2] = chars
      const full = buffer
      use(next ?? new ArrayBuffer(full.byteLength))
      rows = values = chars = 0
      return full
    },
  }
}

/**
 * Reads back the rows of a batch made by {@link createRowBatch}: `each` gets the table's
 * number and the row's values with one free slot first (`values[0]`, for the writer's rowid),
 * in an array reused for every row of that width.
 */
export function readRowBatch(
  buffer: ArrayBuffer,
  widths: number[],
  each: (table: number, values: DatasetValue[]) => void,
): number {
  const layout = regions(buffer.byteLength)
  const [rows, , chars] = new Int32Array(buffer, 0, 3) as unknown as [number, number, number]
  const tableOf = new Uint8Array(buffer, 12, layout.rowCapacity)
  const tags = new Uint8Array(buffer, layout.tags, layout.valueCapacity)
  const numbers = new Float64Array(buffer, layout.numbers, layout.valueCapacity)
  // One string for the whole batch; each text value is a slice of it.
  const text = Buffer.from(buffer, layout.text, chars * 2).toString('utf16le')
  const arrays = widths.map((width) => new Array<DatasetValue>(width + 1).fill(null))
  let value = 0
  let at = 0
  for (let row = 0; row < rows; row++) {
    const table = tableOf[row]!
    const values = arrays[table]!
    const width = widths[table]!
    for (let i = 1; i <= width; i++) {
      const tag = tags[value]
      if (tag === tagText) {
        const length = numbers[value]!
        values[i] = text.slice(at, at + length)
        at += length
      } else values[i] = tag === tagNumber ? numbers[value]! : null
      value++
    }
    each(table, values)
  }
  return rows
}
