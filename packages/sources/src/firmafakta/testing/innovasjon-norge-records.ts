// The records of Innovasjon Norge's Tildelinger.csv fixture, without the encoder that makes
// the file's windows-1252 bytes (iconv-lite, which @allmenning/sources does not depend on):
// the source's own tests load them into the in-memory store; innovasjon-norge-fixtures.ts
// writes the same records into the file the import of @allmenning/datasets reads.

/**
 * The records of `tildelingerCsv()` (innovasjon-norge-fixtures.ts) as the import's reader
 * yields them from the file, header first: comma decimals with space thousands, `DD.MM.YYYY`
 * and the older `DD.MM.YY`, organisation numbers padded to 11 digits with `00`, a sole
 * proprietorship without one, a company name holding a `;` (quoted in the file), and a record
 * whose amount is not a number.
 *
 * @example
 * import { innovasjonNorgeTildelinger } from '../datasets/innovasjon-norge-tildelinger.js'
 * await store.loadFiles(innovasjonNorgeTildelinger, [{ file: 'Tildelinger.csv', records: tildelingerRecords() }])
 */
export function tildelingerRecords(): string[][] {
  return [
    [
      'Fylkesnavn',
      'Kommunenavn',
      'Org-nr',
      'Bedriftsnavn',
      'Virkemiddelkategori',
      'Underkategori',
      'Innvilget beløp',
      'Innvilget dato',
      'Beslutningsenhet',
      'Næringshovedområde',
      'Næring',
      'Type finansiering',
    ],
    // biome-ignore format: one record a line, as the file has them
    ['Trøndelag', 'Trondheim', '976030788', 'SESAM AS', 'Innovasjonskontrakter', 'IFU', '1 000 000,00', '15.03.2024', 'Trøndelag', 'Industri', 'Produksjon av maskiner', 'Tilskudd'],
    // biome-ignore format: one record a line, as the file has them
    ['Trøndelag', 'Trondheim', '00976030788', 'SESAM AS', 'Lån', 'Lavrisikolån', '500 000,50', '02.11.2019', 'Trøndelag', 'Industri', 'Produksjon av maskiner', 'Lån'],
    // biome-ignore format: one record a line, as the file has them
    ['Trøndelag', 'Trondheim', '976030788', 'SESAM AS', 'Etablerertilskudd', 'Markedsavklaring', '75000', '05.03.21', 'Trøndelag', 'Industri', 'Produksjon av maskiner', 'Tilskudd'],
    // biome-ignore format: one record a line, as the file has them
    ['Vestland', 'Bergen', '', 'Kari Nordmann ENK', 'Etablerertilskudd', 'Markedsavklaring', '50 000,00', '01.06.2022', 'Vestland', 'Tjenester', 'Rådgivning', 'Tilskudd'],
    // biome-ignore format: one record a line, as the file has them
    ['Oslo', 'Oslo', '912346234', 'SESAM; HOLDING AS', 'Garantier', 'Byggelånsgaranti', '2 500 000,00', '30.09.2023', 'Oslo', 'Eiendom', 'Utleie', 'Garanti'],
    // A record that cannot be read: an amount that is not a number. Counted and skipped.
    // biome-ignore format: one record a line, as the file has them
    ['Oslo', 'Oslo', '912346234', 'SESAM HOLDING AS', 'Tilskudd', 'Forskning', 'ukjent', '30.09.2023', 'Oslo', 'Eiendom', 'Utleie', 'Tilskudd'],
  ]
}
