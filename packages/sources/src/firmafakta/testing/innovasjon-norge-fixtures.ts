import iconv from 'iconv-lite'
import { tildelingerRecords } from './innovasjon-norge-records.js'

// The records too, for the tests that compare what the import reads from these bytes with them.
export { tildelingerRecords } from './innovasjon-norge-records.js'

// The publisher quotes a field only when it holds the separator or a quote.
const field = (cell: string) => (/[;"]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)

/**
 * Innovasjon Norge's Tildelinger.csv in its real format: windows-1252, `;`, CRLF, comma
 * decimals with space thousands, `DD.MM.YYYY` and the older `DD.MM.YY`, organisation numbers
 * padded to 11 digits with `00`, a sole proprietorship without one, and a company name that
 * holds a quoted `;`. Its records are {@link tildelingerRecords}.
 */
export function tildelingerCsv(): Buffer {
  const lines = tildelingerRecords().map((record) => record.map(field).join(';'))
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'win1252')
}
