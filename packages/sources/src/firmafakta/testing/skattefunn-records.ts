// The cells of SkatteFUNN's workbooks and their records, without the zipper that makes the
// workbooks (fflate, which @allmenning/sources does not depend on): the source's own tests load
// the records into the in-memory store; skattefunn-fixtures.ts writes the same cells into the
// workbooks the import of @allmenning/datasets reads.

/** A cell as the workbook holds it: text, a number, a date (styled as one), or empty. */
export type SkattefunnCell = string | number | Date | null

const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d))

/**
 * SkatteFUNN's historical workbook (2002–2024): `Organisasjonsnummer` as zero-padded text,
 * separate approved/rejected columns holding a date, and the project's years.
 *
 * @example
 * xlsxWorkbook('Søknader 2002-2024', skattefunnHistoricalCells())
 */
export function skattefunnHistoricalCells(): SkattefunnCell[][] {
  return [
    [
      'Innsendt dato',
      'Prosjektnummer',
      'Bedriftsnavn',
      'Prosjekttittel',
      'Organisasjonsnummer',
      'Fylke',
      'Kommunenavn',
      'Søknad godkjent',
      'Søknad avslått',
      'Prosjektets fra-år',
      'Prosjektets til-år',
      'Vedtaksdato',
      'Populærvitenskapelig sammendrag',
    ],
    [
      day(2019, 9, 2),
      290001,
      'SESAM AS',
      'Smartere dører',
      '976030788',
      'Trøndelag',
      'Trondheim',
      day(2019, 10, 1),
      null,
      2019,
      2021,
      day(2019, 10, 1),
      'Dører som åpner seg selv.',
    ],
    [
      day(2023, 3, 1),
      340002,
      'SESAM AS',
      'Avslått idé',
      '976030788',
      'Trøndelag',
      'Trondheim',
      null,
      day(2023, 4, 2),
      2023,
      2024,
      day(2023, 4, 2),
      '',
    ],
    // Overlaps the rolling file, which is newer and wins.
    [
      day(2024, 6, 1),
      350003,
      'SESAM AS',
      'Gammel tittel',
      '976030788',
      'Trøndelag',
      'Trondheim',
      null,
      null,
      2024,
      2026,
      null,
      '',
    ],
  ]
}

/**
 * SkatteFUNN's rolling workbook (docs/upstreams/skattefunn.md): `Org.nr` as a number that lost its
 * leading zero, `GODKJENT?` as JA/NEI, dates for the period, a project number only once granted,
 * and the decision date and summary columns it shares with the historical file.
 *
 * @example
 * xlsxWorkbook('Søknader', skattefunnRollingCells())
 */
export function skattefunnRollingCells(): SkattefunnCell[][] {
  return [
    [
      'Søknadsdato',
      'Søknadsnummer',
      'Prosjektnummer',
      'Prosjektansvarlig',
      'Prosjekttittel',
      'Org.nr',
      'Fylke',
      'Kommune',
      'GODKJENT?',
      'Fra-dato',
      'Til-dato',
      'Vedtaksdato',
      'Populærvitenskapelig sammendrag',
    ],
    [
      day(2024, 6, 1),
      350003,
      350003,
      'SESAM AS',
      'Selvlærende låser',
      976030788,
      'Trøndelag',
      'Trondheim',
      'JA',
      day(2024, 7, 1),
      day(2026, 6, 30),
      null,
      null,
    ],
    [
      day(2025, 1, 15),
      360004,
      null,
      'NULLSTART AS',
      'Lager',
      12345678,
      'Oslo',
      'Oslo',
      'NEI',
      day(2025, 2, 1),
      day(2026, 1, 31),
      day(2025, 3, 3),
      'Et lager som ordner seg selv.',
    ],
  ]
}

// As the import's reader gives a cell: a date as YYYY-MM-DD, a number in its shortest form, empty as ''.
const text = (cell: SkattefunnCell) =>
  cell === null ? '' : cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell)

/**
 * The records of the historical workbook as the import's reader yields them, header first.
 *
 * @example
 * import { skattefunn } from '../datasets/skattefunn.js'
 * await store.loadFiles(skattefunn, [{ file: 'skattefunn-innsendte-soknader.xlsx', records: skattefunnHistoricalRecords() }])
 */
export function skattefunnHistoricalRecords(): string[][] {
  return skattefunnHistoricalCells().map((row) => row.map(text))
}

/**
 * The records of the rolling workbook as the import's reader yields them, header first.
 *
 * @example
 * skattefunnRollingRecords()[1]?.[5] // '976030788', the number that lost no zero
 */
export function skattefunnRollingRecords(): string[][] {
  return skattefunnRollingCells().map((row) => row.map(text))
}
