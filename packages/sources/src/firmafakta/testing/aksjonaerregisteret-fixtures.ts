import iconv from 'iconv-lite'

/**
 * Small Aksjonærregisteret extracts in the real formats, byte for byte: UTF-8 with a
 * byte-order mark and CRLF (recent years), and windows-1252 with another header wording
 * (older years and re-saved files). Each holds the quirks real files have.
 */

const header2024 =
  'Orgnr;Selskap;Aksjeklasse;Navn aksjonær;Fødselsår/orgnr;Postnr/sted;Landkode;Antall aksjer;Antall aksjer selskap'

/** The company with the most holders in the fixture, and its holders largest first. */
export const fixtureCompany = '976030788'
export const fixtureOwnerCompany = '912346234'

const lines2024 = [
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

/** The 2024 extract: UTF-8 with a byte-order mark, CRLF line ends. */
export function aksjonaerregisteret2024(): Buffer {
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines2024.join('\r\n')}\r\n`, 'utf8')])
}

const lines2021 = [
  'Organisasjonsnummer;Navn selskap;Aksjeklasse;Aksjonær;Fødselsår/orgnr;Postnr/sted;Antall aksjer;Antall aksjer selskap',
  '976030788;SESAM AS;Ordinære aksjer;ØDEGÅRD ÅSE;1962;9008 TROMSØ;80;800',
  '976030788;SESAM AS;Ordinære aksjer;NORDMANN OLA;1975;0150 OSLO;720;800',
]

/** An older extract in windows-1252 with the header worded differently and no Landkode column. */
export function aksjonaerregisteret2021Cp1252(): Buffer {
  return iconv.encode(`${lines2021.join('\r\n')}\r\n`, 'win1252')
}

/**
 * The records of {@link aksjonaerregisteret2024} as the import's reader yields them from the
 * bytes (the file is unquoted: each line split at every `;`), header first, for the
 * in-memory dataset store.
 */
export function aksjonaerregisteret2024Records(): string[][] {
  return lines2024.map((line) => line.split(';'))
}

/** The records of {@link aksjonaerregisteret2021Cp1252}, decoded, header first. */
export function aksjonaerregisteret2021Records(): string[][] {
  return lines2021.map((line) => line.split(';'))
}

/** A file that is not an extract at all: what an expired download link answers. */
export function notAnExtract(): Buffer {
  return Buffer.from(
    '<!DOCTYPE html><html><head><title>Link expired</title></head><body>ShareFile</body></html>\n',
    'utf8',
  )
}
