import { defineDataset } from '@allmenning/core/source'

/**
 * Innovasjon Norge's allocation report: every grant, loan and guarantee since 2013, rebuilt
 * nightly.
 *
 * The file's format and quirks are described with its reader (`innovasjonNorgeTildelingerContent`
 * in `innovasjon-norge-tildelinger-reader.ts`), which only an import loads.
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
      content: () =>
        import('./innovasjon-norge-tildelinger-reader.js').then((reader) => reader.innovasjonNorgeTildelingerContent),
    },
  ],
})
