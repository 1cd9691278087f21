import { defineDataset } from '@allmenning/core/source'

/**
 * Forskningsrådet's open data on applications (`soknader2`): every application since 2004,
 * rejected ones included. Applications made in the newer Tibi system (from about 2022–23) are
 * missing from it, as its publisher says.
 *
 * The file's format and quirks are described with its reader (`forskningsradetSoknaderContent`
 * in `forskningsradet-soknader-reader.ts`), which only an import loads.
 */
export const forskningsradetSoknader = defineDataset({
  id: 'forskningsradet_soknader',
  title: 'Forskningsrådet: søknader og bevilgninger',
  description:
    'Applications to the Research Council of Norway since 2004 with their phase (granted, rejected, finished) and amounts applied for and granted.',
  publisher: 'Norges forskningsråd',
  license: 'NLOD 2.0',
  attribution:
    "Contains data from the Research Council of Norway's open data (Forskningsradet/open-data, soknader2), under NLOD 2.0.",
  origin: { kind: 'download', page: 'https://github.com/Forskningsradet/open-data/tree/main/datasets/soknader2' },
  changes: 'irregular',
  tables: [
    {
      name: 'soknader',
      columns: {
        prosjektnummer: 'text',
        organisasjonsnummer: 'text',
        prosjektansvarlig: 'text',
        prosjekttittel: 'text',
        prosjekttype: 'text',
        prosjektfase: 'text',
        soknadsdato: 'text',
        prosjektstart: 'text',
        prosjektslutt: 'text',
        sektor: 'text',
        virkemiddel: 'text',
        utlysning: 'text',
        fagomraade: 'text',
        sokt_belop: 'real',
        tildelt_belop: 'real',
      },
      indexes: [['organisasjonsnummer']],
    },
  ],
  files: [
    {
      name: 'dataset.csv',
      url: 'https://raw.githubusercontent.com/Forskningsradet/open-data/main/datasets/soknader2/dataset.csv',
      content: () =>
        import('./forskningsradet-soknader-reader.js').then((reader) => reader.forskningsradetSoknaderContent),
    },
  ],
})
