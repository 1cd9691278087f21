import { defineDataset } from '@allmenning/core/source'

/**
 * SkatteFUNN (the R&D tax incentive): applications since 2002 in two workbooks the publisher
 * links from its landing page, a historical one (2002–2024) and a rolling one; the rolling
 * file is read last and wins where the two overlap.
 *
 * The workbooks' differences are described with their reader (`skattefunnContent` in
 * `skattefunn-reader.ts`), which only an import loads.
 */
export const skattefunn = defineDataset({
  id: 'skattefunn',
  title: 'SkatteFUNN: søknader',
  description: 'Applications for the SkatteFUNN R&D tax incentive since 2002, approved and rejected, per company.',
  publisher: 'Norges forskningsråd (SkatteFUNN)',
  license: 'NLOD 2.0',
  attribution: 'Contains data from SkatteFUNN, the Research Council of Norway, under NLOD 2.0.',
  origin: { kind: 'download', page: 'https://www.forskningsradet.no/skattefunn/suksesshistorier/' },
  changes: 'monthly',
  tables: [
    {
      name: 'soknader',
      columns: {
        soknadsnummer: 'text',
        organisasjonsnummer: 'text',
        bedrift: 'text',
        prosjekttittel: 'text',
        innsendt: 'text',
        status: 'text',
        fra: 'text',
        til: 'text',
        vedtaksdato: 'text',
        fylke: 'text',
        kommune: 'text',
        sammendrag: 'text',
      },
      key: ['soknadsnummer'],
      keep: 'last',
      indexes: [['organisasjonsnummer', 'innsendt']],
    },
  ],
  files: [
    {
      name: 'skattefunn-innsendte-soknader.xlsx',
      discover: {
        page: 'https://www.forskningsradet.no/skattefunn/suksesshistorier/',
        pattern: /[^"'\s>]*skattefunn-innsendte-soknader[^"'\s>]*\.xlsx/,
        // The historical workbooks first, the rolling one ("per-<month>-<year>") last, so it wins.
        order: (urls) => [...urls.filter((u) => !/-per-/.test(u)), ...urls.filter((u) => /-per-/.test(u))],
      },
      content: () => import('./skattefunn-reader.js').then((reader) => reader.skattefunnContent),
    },
  ],
})
