import { defineDataset } from '@allmenning/core/source'
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
 * Innovasjon Norge's allocation report: every grant, loan and guarantee since 2013, rebuilt
 * nightly. `;`-separated, windows-1252 (ISO-8859-1 as clients read it), comma decimals,
 * `DD.MM.YYYY` dates (`DD.MM.YY` in older versions), organisation numbers sometimes padded to
 * 11 digits with `00`, and none for some sole proprietorships.
 */
export const innovasjonNorgeTildelinger = defineDataset({
  id: 'innovasjon_norge_tildelinger',
  title: 'Innovasjon Norge: tildelinger',
  description:
    'Grants, loans and guarantees Innovasjon Norge has awarded since 2013, per company, with amount, date, scheme and county.',
  publisher: 'Innovasjon Norge',
  license: 'NLOD 2.0',
  attribution: "Contains data from Innovasjon Norge's allocation report (tildelingsrapport), under NLOD 2.0.",
  origin: { kind: 'download', page: 'https://www.innovasjonnorge.no/no/om/offentlig-journal-og-apne-data/' },
  changes: 'daily',
  tables: [
    {
      name: 'tildelinger',
      columns: {
        organisasjonsnummer: 'text',
        bedriftsnavn: 'text',
        fylke: 'text',
        kommune: 'text',
        virkemiddelkategori: 'text',
        underkategori: 'text',
        belop: 'real',
        dato: 'text',
        beslutningsenhet: 'text',
        naeringshovedomraade: 'text',
        naering: 'text',
        type_finansiering: 'text',
      },
      indexes: [['organisasjonsnummer', 'dato']],
    },
  ],
  files: [
    {
      name: 'Tildelinger.csv',
      url: 'https://indatapublic.blob.core.windows.net/tildelingsrapport/Tildelinger.csv',
      content: {
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
      },
    },
  ],
})
