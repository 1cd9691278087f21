import { defineDataset } from '@allmenning/core/source'

/**
 * EU research and innovation projects from CORDIS: Horizon Europe and Horizon 2020, each a zip
 * holding `project.csv` and `organization.csv`. Participants are kept when Norwegian, matched
 * to an organisation number by their VAT number (`NO<orgnr>MVA`); those without one (some
 * universities) are found by the PIC the others share.
 *
 * The files' format is described with their readers (`cordisHorizonContent` and
 * `cordisH2020Content` in `cordis-reader.ts`), which only an import loads.
 */
export const cordis = defineDataset({
  id: 'cordis',
  title: 'CORDIS: EU research projects (Horizon Europe, Horizon 2020)',
  description:
    'EU-funded research and innovation projects with their Norwegian participants, roles and EU contributions.',
  publisher: 'European Commission (CORDIS)',
  license: 'CC BY 4.0',
  attribution: 'Contains data from CORDIS, © European Union, under CC BY 4.0.',
  origin: {
    kind: 'download',
    page: 'https://data.europa.eu/data/datasets/cordis-eu-research-projects-under-horizon-europe-2021-2027',
  },
  changes: 'monthly',
  tables: [
    {
      name: 'prosjekter',
      columns: {
        prosjekt_id: 'text',
        rammeprogram: 'text',
        akronym: 'text',
        tittel: 'text',
        status: 'text',
        start: 'text',
        slutt: 'text',
        total_kostnad: 'real',
        eu_bidrag_maks: 'real',
        finansieringsordning: 'text',
      },
      key: ['prosjekt_id'],
      indexes: [['prosjekt_id']],
    },
    {
      name: 'deltakere',
      columns: {
        prosjekt_id: 'text',
        pic: 'text',
        organisasjonsnummer: 'text',
        mva_nummer: 'text',
        navn: 'text',
        rolle: 'text',
        eu_bidrag: 'real',
        netto_eu_bidrag: 'real',
        total_kostnad: 'real',
        sme: 'integer',
      },
      indexes: [['organisasjonsnummer'], ['pic']],
    },
  ],
  files: [
    {
      name: 'cordis-HORIZONprojects-csv.zip',
      url: 'https://cordis.europa.eu/data/cordis-HORIZONprojects-csv.zip',
      content: () => import('./cordis-reader.js').then((reader) => reader.cordisHorizonContent),
    },
    {
      name: 'cordis-h2020projects-csv.zip',
      url: 'https://cordis.europa.eu/data/cordis-h2020projects-csv.zip',
      content: () => import('./cordis-reader.js').then((reader) => reader.cordisH2020Content),
    },
  ],
})
