import { defineDataset } from '@allmenning/core/source'

/**
 * Skatteetaten's Aksjonærregisteret: every shareholding in Norwegian limited companies at the
 * end of a year. There is no API: the extract is ordered from Skatteetaten and arrives by
 * e-mail, so it is loaded with `allmenning datasets import aksjonaerregisteret <file>`.
 *
 * The file's format and quirks are described with its reader (`aksjonaerregisteretContent` in
 * `aksjonaerregisteret-reader.ts`), which only an import loads.
 */
export const aksjonaerregisteret = defineDataset({
  id: 'aksjonaerregisteret',
  title: 'Aksjonærregisteret (Skatteetaten)',
  description:
    'Shareholdings in Norwegian limited companies at the end of a year: company, share class, owner (a person with birth year, ' +
    "or a company with organisation number), postcode and place, country, number of shares, and the company's total.",
  publisher: 'Skatteetaten',
  license: 'NLOD 2.0',
  attribution:
    "Contains data from Skatteetaten's Aksjonærregisteret, under the Norwegian Licence for Open Government Data (NLOD) 2.0.",
  origin: {
    kind: 'order',
    page: 'https://www.skatteetaten.no/deling/aksjonarregisteret/',
    instructions:
      'Order the extract for a year at https://www.skatteetaten.no/deling/aksjonarregisteret/ (a year opens in May of the year after); ' +
      'it arrives within five working days as a download link by e-mail. Then run: npx allmenning datasets import aksjonaerregisteret <file> --published <YYYY-12-31>',
  },
  changes: 'yearly',
  tables: [
    {
      name: 'aksjeposter',
      columns: {
        selskap_orgnr: 'text',
        selskap: 'text',
        aksjeklasse: 'text',
        eier_navn: 'text',
        eier_id: 'text',
        eier_nokkel: 'text',
        postnr_sted: 'text',
        landkode: 'text',
        antall_aksjer: 'integer',
        antall_aksjer_selskap: 'integer',
      },
      key: ['selskap_orgnr', 'aksjeklasse', 'eier_navn', 'eier_id'],
      sum: ['antall_aksjer'],
      // One index finds an owner either way: a company by its number, a person by surname, name
      // key and birth year (`surname|name key|year`), or everyone with a surname by prefix.
      indexes: [['selskap_orgnr', 'antall_aksjer'], ['eier_nokkel']],
    },
  ],
  files: [
    {
      name: 'aksjonaerregisteret.csv',
      content: () => import('./aksjonaerregisteret-reader.js').then((reader) => reader.aksjonaerregisteretContent),
    },
  ],
})
