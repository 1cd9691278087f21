import type { DatasetContent } from '@allmenning/core/source'
import { headerColumns, text } from './header-columns.js'
import { norwegianDate } from './norwegian-date.js'
import { norwegianNumber } from './norwegian-number.js'
import { orgNrCell } from './org-nr-cell.js'

const columns = {
  fylke: ['Fylkesnavn'],
  kommune: ['Kommunenavn'],
  orgnr: ['Org-nr', 'Orgnr', 'Organisasjonsnummer'],
  bedrift: ['Bedriftsnavn'],
  kategori: ['Virkemiddelkategori'],
  underkategori: ['Underkategori'],
  belop: ['Innvilget beløp'],
  dato: ['Innvilget dato'],
  enhet: ['Beslutningsenhet'],
  hovedomraade: ['Næringshovedområde'],
  naering: ['Næring'],
  finansiering: ['Type finansiering'],
}

/**
 * How Innovasjon Norge's allocation report (`Tildelinger.csv`) is read: `;`-separated,
 * windows-1252 (ISO-8859-1 as clients read it), comma decimals, `DD.MM.YYYY` dates
 * (`DD.MM.YY` in older versions), organisation numbers sometimes padded to 11 digits with
 * `00`, and none for some sole proprietorships.
 */
export const innovasjonNorgeTildelingerContent: DatasetContent = {
  format: { type: 'delimited', delimiter: ';', quoting: 'rfc4180', encodings: ['utf-8', 'windows-1252'] },
  rows({ header }) {
    const at = headerColumns(
      header,
      columns,
      ['underkategori', 'enhet', 'hovedomraade', 'naering', 'finansiering'],
      "Innovasjon Norge's Tildelinger.csv",
    )
    return (cells) => ({
      table: 'tildelinger',
      row: {
        organisasjonsnummer: orgNrCell(cells[at.orgnr], 'Org-nr'),
        bedriftsnavn: text(cells, at.bedrift),
        fylke: text(cells, at.fylke) || null,
        kommune: text(cells, at.kommune) || null,
        virkemiddelkategori: text(cells, at.kategori) || null,
        underkategori: text(cells, at.underkategori) || null,
        belop: norwegianNumber(cells[at.belop], 'Innvilget beløp'),
        dato: norwegianDate(cells[at.dato], 'Innvilget dato'),
        beslutningsenhet: text(cells, at.enhet) || null,
        naeringshovedomraade: text(cells, at.hovedomraade) || null,
        naering: text(cells, at.naering) || null,
        type_finansiering: text(cells, at.finansiering) || null,
      },
    })
  },
}
