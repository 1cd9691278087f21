// The Aksjonærregisteret fixtures' lines and their records, without the encoders that make the
// files' bytes (iconv-lite, which @allmenning/sources does not depend on): the source's own
// tests load the records into the in-memory store; aksjonaerregisteret-fixtures.ts encodes the
// same lines into the files the import of @allmenning/datasets reads.

const header2024 =
  'Orgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;Antall aksjer;Antall aksjer selskap'

/** The company with the most holders in the fixture, and its holders largest first. */
export const fixtureCompany = '976030788'
export const fixtureOwnerCompany = '912346234'

/** The lines of the 2024 extract, header first, as the file holds them (without line ends). */
export const lines2024 = [
  header2024,
  '976030788;SESAM AS;Ordinære aksjer;SESAM HOLDING AS;912346234;7010 TRONDHEIM;NO;600;1000',
  '976030788;SESAM AS;Ordinære aksjer;NORDMANN OLA;1975;0150 OSLO;NO;150;1000',
  // The register repeats a holding now and then: the two rows are one holding of 100.
  '976030788;SESAM AS;Ordinære aksjer;ØDEGÅRD ÅSE;1962;9008 TROMSØ;NO;60;1000',
  '976030788;SESAM AS;Ordinære aksjer;ØDEGÅRD ÅSE;1962;9008 TROMSØ;NO;40;1000',
  // A foreign address holding unquoted `;`, folded back into Postnr/sted.
  '976030788;SESAM AS;Ordinære aksjer;VIMLE AB; ;S-41, Ljungby; Sverige;SE;60;1000',
  // A literal, unbalanced quote: an ordinary character in these files.
  '976030788;SESAM AS;Ordinære aksjer;"NORRSKEN MUTUAL HOLDING LTD (PUBL;917654321;00100 HELSINKI;FI;30;1000',
  // A namesake of Ola Nordmann, born another year.
  '976030788;SESAM AS;B-aksjer;NORDMANN OLA;1980;5003 BERGEN;NO;10;50',
  // Counts with no-break-space thousands separators.
  '912346234;SESAM HOLDING AS;Ordinære aksjer;NORDMANN OLA;1975;0150 OSLO;NO;12\u00a0500;20\u00a0000',
  '912346234;SESAM HOLDING AS;Ordinære aksjer;HANSEN KARI ELISABETH;1981;7010 TRONDHEIM;NO;7\u00a0500;20\u00a0000',
  // A malformed record: an organisation number of eight digits. Counted and skipped.
  '97603078;SESAM AS;Ordinære aksjer;BERG PER;1950;0150 OSLO;NO;5;1000',
  '923609016;EQUINOR ASA;Ordinære aksjer;SESAM HOLDING AS;912346234;7010 TRONDHEIM;NO;1000;3000000000',
]

/** The lines of the older extract, header first, before they are encoded in windows-1252. */
export const lines2021 = [
  'Organisasjonsnummer;Navn selskap;Aksjeklasse;Aksjonær;Fødselsår/orgnr;Postnr/sted;Antall aksjer;Antall aksjer selskap',
  '976030788;SESAM AS;Ordinære aksjer;ØDEGÅRD ÅSE;1962;9008 TROMSØ;80;800',
  '976030788;SESAM AS;Ordinære aksjer;NORDMANN OLA;1975;0150 OSLO;720;800',
]

/**
 * The records of `aksjonaerregisteret2024()` (aksjonaerregisteret-fixtures.ts) as the import's
 * reader yields them from the bytes (the file is unquoted: each line split at every `;`),
 * header first, for the in-memory dataset store.
 *
 * @example
 * await store.loadFiles(aksjonaerregisteret, [{ file: 'aksjonaerregisteret.csv', records: aksjonaerregisteret2024Records() }])
 */
export function aksjonaerregisteret2024Records(): string[][] {
  return lines2024.map((line) => line.split(';'))
}

/**
 * The records of `aksjonaerregisteret2021Cp1252()`, decoded, header first.
 *
 * @example
 * aksjonaerregisteret2021Records()[0] // ['Organisasjonsnummer', 'Navn selskap', ...]
 */
export function aksjonaerregisteret2021Records(): string[][] {
  return lines2021.map((line) => line.split(';'))
}
