import { defineDataset } from '@allmenning/core/source'
import { kartverketAdresser } from '../../geonorge/kartverket-upstreams.js'
import { ADDRESS_POINT_COLUMNS, ADDRESS_POINTS_FILE } from './address-points-file.js'
import { smilefjes } from './smilefjes.js'

export { ADDRESS_POINT_COLUMNS, ADDRESS_POINTS_FILE }

/**
 * The smilefjes establishments' addresses placed on the map: each distinct address (street line
 * and postal code) looked up once in Kartverket's address register by
 * `geocodeEstablishmentAddresses`, which appends one line per address to
 * {@link ADDRESS_POINTS_FILE}. Derived from `mattilsynet_smilefjes`: `npx allmenning datasets
 * sync` runs a run of at most 5,000 requests after syncing it, and loads the file (`sync
 * mattilsynet_adressepunkter` runs it alone, `--budget <n>` sets its size). `placed` lines carry Kartverket's representation point
 * (WGS84) and municipality; `not_found` lines say Kartverket has no such address (retried
 * after 30 days). A later line for an address replaces an earlier one.
 */
export const adressepunkter = defineDataset({
  id: 'mattilsynet_adressepunkter',
  title: 'Mattilsynet smilefjes: addresses placed by Kartverket',
  description:
    "The smilefjes establishments' addresses with Kartverket's point and municipality for each, made by the geocoding step " +
    "from Kartverket's address register.",
  publisher: 'Kartverket (Norwegian Mapping Authority)',
  license: 'CC BY 4.0',
  attribution: "Positions from Kartverket's address register (Matrikkelen), © Kartverket, CC BY 4.0.",
  origin: {
    kind: 'derived',
    page: 'https://ws.geonorge.no/adresser/v1/',
    from: [smilefjes.id],
    action: 'placing addresses',
    // 5,000 requests at 10 a second: a run of about 8 min 20 s, a tenth of Norway's ~48,000 establishments.
    budget: 5000,
    requestsPerSecond: 10,
    upstreams: [kartverketAdresser],
    // The geocoding step's code is imported when a sync runs it: a gateway that serves the
    // dataset (and a serverless cold start) never evaluates it.
    derive: async (context) => (await import('../geocode/derive-address-points.js')).deriveAddressPoints(context),
  },
  changes: 'daily',
  tables: [
    {
      name: 'adressepunkter',
      columns: {
        adresse_key: 'text',
        status: 'text',
        lat: 'real',
        lon: 'real',
        celle: 'text',
        kommunenummer: 'text',
        kommunenavn: 'text',
        kommunenavn_key: 'text',
        adressetekst: 'text',
        checked_at: 'text',
      },
      indexes: [['adresse_key'], ['celle'], ['kommunenummer'], ['kommunenavn_key']],
      key: ['adresse_key'],
      keep: 'last',
    },
  ],
  files: [
    {
      name: ADDRESS_POINTS_FILE,
      content: () => import('./adressepunkter-reader.js').then((reader) => reader.adressepunkterContent),
    },
  ],
})
