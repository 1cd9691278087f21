import { xlsxWorkbook } from './xlsx-workbook.js'

const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d))

/**
 * SkatteFUNN's historical workbook (2002–2024): `Organisasjonsnummer` as zero-padded text,
 * separate approved/rejected columns holding a date, and the project's years.
 */
export function skattefunnHistorical(): Uint8Array {
  return xlsxWorkbook('Søknader 2002-2024', [
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
  ])
}

/**
 * SkatteFUNN's rolling workbook (docs/upstreams/skattefunn.md): `Org.nr` as a number that lost its
 * leading zero, `GODKJENT?` as JA/NEI, dates for the period, a project number only once granted,
 * and the decision date and summary columns it shares with the historical file.
 */
export function skattefunnRolling(): Uint8Array {
  return xlsxWorkbook('Søknader', [
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
  ])
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
