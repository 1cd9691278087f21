import { defineDataset } from '@allmenning/core/source'
import { UDIR_ENHETER_FILES, UDIR_PAGE_SIZE, udirBaseUrl } from './udir-register-files.js'

/**
 * Udir's two registers whole, as one dataset: every unit of the school register (NSR) and the
 * kindergarten register (NBR), closed ones and owners too, and for each school and
 * kindergarten in operation its own record, which alone holds its position. No file or bulk
 * endpoint gives positions: `sync` downloads the first page of each register's list, then an
 * import reads the rest of the list (`/v4/enheter?sidenummer=&antallperside=1000`, some 19
 * pages for NSR) and each record (`/v4/enhet/{orgnr}`) at most 10 a second, 4 at once,
 * keeping what it read in a journal so an interrupted sync goes on where it stopped and a
 * daily one reads only the units whose `DatoEndret` changed.
 *
 * The rows are indexed by area (what the searches list) and by a grid cell of about 1 km
 * (what `find_schools_nearby` reads), so no request calls Udir for a position.
 */
export const udirEnheter = defineDataset({
  id: 'udir_enheter',
  title: 'Udir: schools and kindergartens (NSR and NBR) with their positions',
  description:
    "Every unit of Udir's national school and kindergarten registers, with the flags of their lists and, for the schools " +
    'and kindergartens in operation, the position, address and full record of each.',
  publisher: 'Utdanningsdirektoratet (Nasjonalt skoleregister and Nasjonalt barnehageregister)',
  license: 'NLOD',
  attribution:
    'Inneholder data under Norsk lisens for offentlige data (NLOD) tilgjengeliggjort av Utdanningsdirektoratet.',
  origin: { kind: 'download', page: 'https://data-nsr.udir.no/swagger/index.html' },
  changes: 'daily',
  // A unit Udir sends in another shape is skipped and counted; a register mostly so is not Udir's.
  maxMalformedShare: 0.2,
  files: (['nsr', 'nbr'] as const).map((register) => ({
    name: UDIR_ENHETER_FILES[register],
    // Read when the sync plans its downloads, so ALLMENNING_UPSTREAM_UDIR_* set by then counts.
    get url() {
      return `${udirBaseUrl(register)}/enheter?sidenummer=1&antallperside=${UDIR_PAGE_SIZE}`
    },
    headers: { accept: 'application/json' },
    content: () => import('./udir-enheter-reader.js').then((reader) => reader.udirRegisterContent(register)),
  })),
  tables: [
    {
      name: 'enheter',
      columns: {
        register: 'text',
        orgnr: 'text',
        navn: 'text',
        fullt_navn: 'text',
        kommunenr: 'text',
        fylkesnr: 'text',
        aktiv: 'integer',
        flagg: 'text',
        dato_endret: 'text',
        posisjon: 'text',
        lat: 'real',
        lon: 'real',
        zoom: 'integer',
        geo_kilde: 'text',
        adresse: 'text',
        postnr: 'text',
        poststed: 'text',
        record_endret: 'text',
        celle: 'text',
        record: 'text',
      },
      indexes: [['register', 'kommunenr'], ['register', 'fylkesnr'], ['orgnr'], ['celle']],
      key: ['register', 'orgnr'],
      keep: 'last',
    },
  ],
})
