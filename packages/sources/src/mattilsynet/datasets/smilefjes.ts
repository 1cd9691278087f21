import { defineDataset } from '@allmenning/core/source'

/**
 * Mattilsynet's smilefjes register: every inspection of a place serving food since 2016 (cafés,
 * restaurants, shops, kiosks, institutions), one line each, published as one cumulative file
 * rebuilt daily. `;`-separated UTF-8 with a byte-order mark, `dato` as `DDMMYYYY`, no
 * coordinates. It fills two tables: `tilsyn`, every inspection; and `tilsynsobjekter`, one row
 * per establishment carrying its latest inspection, which the operations list and filter.
 *
 * The latest inspection is found while the file streams, in any order: a record newer than
 * every earlier one of its establishment (or as new) gives the establishment a row, and the
 * table keeps the last row given per establishment (`keep: 'last'`), which is the newest.
 */
export const smilefjes = defineDataset({
  id: 'mattilsynet_smilefjes',
  title: 'Mattilsynet: smilefjes (food inspections)',
  description:
    'Every food-safety inspection Mattilsynet has made of restaurants, cafés, shops and other places serving food since 2016, ' +
    'with the smiley grade (0–3) in all and for four themes, by establishment and address.',
  publisher: 'Mattilsynet',
  license: 'NLOD 2.0',
  attribution:
    "Contains data from Mattilsynet's smilefjes register (tilsyn), under the Norwegian Licence for Open Government Data (NLOD 2.0).",
  origin: { kind: 'download', page: 'https://data.norge.no/datasets/288aa74c-e3d3-492e-9ede-e71503b3bfd9' },
  changes: 'daily',
  tables: [
    {
      name: 'tilsyn',
      columns: {
        tilsynid: 'text',
        tilsynsobjektid: 'text',
        dato: 'text',
        karakter: 'integer',
        karakter1: 'integer',
        karakter2: 'integer',
        karakter3: 'integer',
        karakter4: 'integer',
        tilsynsbesoektype: 'integer',
        sakref: 'text',
        status: 'text',
      },
      indexes: [['tilsynsobjektid', 'dato']],
      key: ['tilsynid'],
      keep: 'last',
    },
    {
      name: 'tilsynsobjekter',
      columns: {
        tilsynsobjektid: 'text',
        orgnummer: 'text',
        navn: 'text',
        adrlinje1: 'text',
        adrlinje2: 'text',
        postnr: 'text',
        poststed: 'text',
        poststed_key: 'text',
        adresse_key: 'text',
        tilsynid: 'text',
        dato: 'text',
        karakter: 'integer',
        tilsynsbesoektype: 'integer',
        tema1: 'text',
        karakter1: 'integer',
        tema2: 'text',
        karakter2: 'integer',
        tema3: 'text',
        karakter3: 'integer',
        tema4: 'text',
        karakter4: 'integer',
      },
      indexes: [
        ['poststed_key', 'dato'],
        ['postnr', 'dato'],
        ['orgnummer'],
        ['adresse_key'],
        ['dato'],
        ['karakter', 'dato'],
      ],
      key: ['tilsynsobjektid'],
      keep: 'last',
      fullText: { columns: ['navn'] },
    },
  ],
  files: [
    {
      name: 'smilefjes-tilsyn.csv',
      url: 'https://data.mattilsynet.no/smilefjes-tilsyn.csv',
      content: () => import('./smilefjes-reader.js').then((reader) => reader.smilefjesContent),
    },
  ],
})
