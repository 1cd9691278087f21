import iconv from 'iconv-lite'
import { lines2021, lines2024 } from './aksjonaerregisteret-records.js'

// The records too, for the tests that compare what the import reads from these bytes with them.
export {
  aksjonaerregisteret2021Records,
  aksjonaerregisteret2024Records,
  fixtureCompany,
  fixtureOwnerCompany,
} from './aksjonaerregisteret-records.js'

/**
 * Small Aksjonærregisteret extracts in the real formats, byte for byte: UTF-8 with a
 * byte-order mark and CRLF (recent years), and windows-1252 with another header wording
 * (older years and re-saved files). Each holds the quirks real files have.
 */

/** The 2024 extract: UTF-8 with a byte-order mark, CRLF line ends. */
export function aksjonaerregisteret2024(): Buffer {
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${lines2024.join('\r\n')}\r\n`, 'utf8')])
}

/** An older extract in windows-1252 with the header worded differently and no Landkode column. */
export function aksjonaerregisteret2021Cp1252(): Buffer {
  return iconv.encode(`${lines2021.join('\r\n')}\r\n`, 'win1252')
}

/** A file that is not an extract at all: what an expired download link answers. */
export function notAnExtract(): Buffer {
  return Buffer.from(
    '<!DOCTYPE html><html><head><title>Link expired</title></head><body>ShareFile</body></html>\n',
    'utf8',
  )
}
