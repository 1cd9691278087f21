import { readSheet } from 'read-excel-file/node'
import { DatasetFileError, type XlsxFormat } from '@allmenning/core'
import { recordBatchSize } from './delimited-records.js'

function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10)
  return String(value)
}

/**
 * The rows of one sheet of an XLSX workbook as text cells, in batches; the first non-empty
 * row is the header. read-excel-file unzips and parses the sheet; cells formatted as dates
 * arrive as `YYYY-MM-DD`, numbers as their shortest decimal form. The sheet is read whole,
 * which suits the tens of thousands of rows such workbooks hold.
 *
 * @example
 * for await (const batch of xlsxRecords('skattefunn.xlsx', { type: 'xlsx' })) rows += batch.length
 */
export async function* xlsxRecords(path: string, format: XlsxFormat): AsyncGenerator<string[][]> {
  let sheet: unknown[][]
  try {
    sheet = (await readSheet(path, format.sheet ?? 1)) as unknown[][]
  } catch (error) {
    throw new DatasetFileError(`is not a readable XLSX workbook: ${(error as Error).message}`)
  }
  let batch: string[][] = []
  for (const row of sheet) {
    const cells = row.map(cellText)
    if (cells.every((cell) => cell.trim() === '')) continue
    batch.push(cells)
    if (batch.length >= recordBatchSize) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}
