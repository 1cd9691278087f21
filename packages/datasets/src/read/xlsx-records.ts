import { DatasetFileError, type XlsxFormat } from '@allmenning/core/source'
import type { Entry } from 'yauzl'
import { recordBatchSize } from './delimited-records.js'
import { defaultReadLimits, describeSize, limitOptions, ReadLimitError, type ReadLimits } from './read-limits.js'
import { openArchive } from './zip-members.js'

/**
 * Checks a workbook's members before it is read whole: their count, and the bytes they unpack
 * to by their declared sizes (which the unzipping holds them to).
 */
async function checkWorkbook(path: string, name: string, limits: ReadLimits): Promise<void> {
  const zip = await openArchive(path, name, limits, 'a readable XLSX workbook')
  try {
    let unpacked = 0
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        unpacked += entry.uncompressedSize
        if (unpacked > limits.maxWorkbookBytes) {
          reject(
            new ReadLimitError(
              `${name} unpacks to more than ${describeSize(limits.maxWorkbookBytes)} (the most a workbook, read whole, may unpack to; raise it with ${limitOptions.maxWorkbookBytes})`,
              'maxWorkbookBytes',
            ),
          )
        } else zip.readEntry()
      })
      zip.on('end', () => resolve())
      zip.on('error', (error: Error) =>
        reject(new DatasetFileError(`is not a readable XLSX workbook: ${error.message}`)),
      )
      zip.readEntry()
    })
  } finally {
    zip.close()
  }
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10)
  return String(value)
}

/**
 * The rows of one sheet of an XLSX workbook as text cells, in batches; the first non-empty
 * row is the header. read-excel-file unzips and parses the sheet; cells formatted as dates
 * arrive as `YYYY-MM-DD`, numbers as their shortest decimal form. The sheet is read whole,
 * which suits the tens of thousands of rows such workbooks hold; a workbook that unpacks to more
 * than `limits.maxWorkbookBytes` is refused before it is read. read-excel-file (with the
 * unzipping and XML parsing it brings, over half a megabyte of code) is loaded by the first
 * workbook read, not by every process that imports the package only to serve its datasets.
 *
 * @example
 * for await (const batch of xlsxRecords('skattefunn.xlsx', { type: 'xlsx' })) rows += batch.length
 */
export async function* xlsxRecords(
  path: string,
  format: XlsxFormat,
  name = path,
  limits: ReadLimits = defaultReadLimits,
): AsyncGenerator<string[][]> {
  await checkWorkbook(path, name, limits)
  const { readSheet } = await import('read-excel-file/node')
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
