import { skattefunnHistoricalCells, skattefunnRollingCells } from './skattefunn-records.js'
import { xlsxWorkbook } from './xlsx-workbook.js'

// The records too, for the tests that compare what the import reads from these workbooks with them.
export { skattefunnHistoricalRecords, skattefunnRollingRecords } from './skattefunn-records.js'

/** SkatteFUNN's historical workbook (2002–2024): the cells of {@link skattefunnHistoricalCells}. */
export function skattefunnHistorical(): Uint8Array {
  return xlsxWorkbook('Søknader 2002-2024', skattefunnHistoricalCells())
}

/** SkatteFUNN's rolling workbook: the cells of {@link skattefunnRollingCells}. */
export function skattefunnRolling(): Uint8Array {
  return xlsxWorkbook('Søknader', skattefunnRollingCells())
}

/** The landing page that links the workbooks, as the publisher's CMS writes links (root-relative unless `site` is given). */
export function skattefunnPage(site = ''): string {
  return (
    '<!DOCTYPE html><html lang="no"><body><h1>Suksesshistorier</h1>' +
    `<a href="${site}/siteassets/skattefunn/tall/skattefunn-innsendte-soknader-per-januar-2026.xlsx">Søknader per januar 2026 (xlsx)</a>` +
    `<a href="${site}/siteassets/skattefunn/tall/skattefunn-innsendte-soknader-2002-2024.xlsx?v=3">Søknader 2002–2024 (xlsx)</a>` +
    '<a href="/siteassets/skattefunn/tall/annet.pdf">Annet</a></body></html>'
  )
}
