import {
  DatasetFileError,
  DatasetRowError,
  defineDataset,
  type DatasetRowsOut,
  type StreamContent,
} from '@allmenning/core/source'
import { gridCell } from '../../shared/grid-cell.js'
import { parseUnitDetail, parseUnitList } from '../unit-payloads.js'
import { udirNbr, udirNsr, type UdirRegister } from '../udir-upstreams.js'
import type { CrawledUnit } from './crawl-register.js'

/** Units a list page asks for: the most Udir's v4 gives. */
export const UDIR_PAGE_SIZE = 1000

/** The file of each register, as `sync` keeps it: the first page of the register's list. */
export const UDIR_ENHETER_FILES = { nsr: 'nsr-enheter.json', nbr: 'nbr-enheter.json' } as const

const upstreamOf = (register: UdirRegister) => (register === 'nsr' ? udirNsr : udirNbr)

/**
 * The register's API as this process is set to call it: `ALLMENNING_UPSTREAM_UDIR_NSR` and
 * `ALLMENNING_UPSTREAM_UDIR_NBR` override it, as they do the gateway's.
 *
 * @example
 * udirBaseUrl('nsr') // 'https://data-nsr.udir.no/v4'
 */
export function udirBaseUrl(
  register: UdirRegister,
  env: Record<string, string | undefined> = globalThis.process?.env ?? {},
): string {
  const set = register === 'nsr' ? env.ALLMENNING_UPSTREAM_UDIR_NSR : env.ALLMENNING_UPSTREAM_UDIR_NBR
  return (set && set.trim() !== '' ? set.trim() : upstreamOf(register).baseUrl).replace(/\/+$/, '')
}

/**
 * Where the crawl keeps the records it has read: beside the downloads of the data directory
 * (`ALLMENNING_DATA_DIR`, `./data` by default, as the command line's own default).
 *
 * @example
 * udirJournalPath('nsr') // 'data/downloads/udir_enheter/nsr-records.jsonl'
 */
export function udirJournalPath(
  register: UdirRegister,
  env: Record<string, string | undefined> = globalThis.process?.env ?? {},
): string {
  // No node:path here: the definition is loaded with the source, in every runtime the gateway runs in.
  const dir = (env.ALLMENNING_DATA_DIR || 'data').replace(/[\\/]+$/, '')
  return `${dir}/downloads/udir_enheter/${register}-records.jsonl`
}

async function wholeJson(input: AsyncIterable<Uint8Array>, file: string): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of input) chunks.push(Buffer.from(chunk))
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
  try {
    return JSON.parse(text)
  } catch {
    throw new DatasetFileError(`${file} is not JSON (it begins: ${JSON.stringify(text.slice(0, 80))})`)
  }
}

/** A record's own fields as a list item spells them, for a file of records (no list read). */
function itemOfRecord(record: Record<string, unknown>): Record<string, unknown> {
  const kommune = (record.Kommune ?? {}) as Record<string, unknown>
  const fylke = (record.Fylke ?? {}) as Record<string, unknown>
  return {
    ...record,
    Kommunenummer: kommune.Kommunenummer ?? kommune.Kommunenr,
    Fylkesnummer: fylke.Fylkesnummer ?? kommune.Fylkesnummer,
  }
}

function registerContent(register: UdirRegister): StreamContent {
  const file = UDIR_ENHETER_FILES[register]
  return {
    format: { type: 'stream' },
    // Two forms: the first page of the register's list (what `sync` downloads), from which the
    // rest of the list and the records are read; or a JSON array of records (`/enhet/{orgnr}`
    // answers), as the offline demo and a mirror that holds a finished crawl give it.
    records: async function* (input) {
      const body = await wholeJson(input, file)
      if (Array.isArray(body)) {
        for (const record of body) {
          if (typeof record !== 'object' || record === null)
            throw new DatasetFileError(`${file}: an element is not a record`)
          yield { register, item: itemOfRecord(record as Record<string, unknown>), record } satisfies CrawledUnit
        }
        return
      }
      const { crawlRegister } = await import('./crawl-register.js')
      let lastLine = 0
      let finished = false
      yield* crawlRegister(register, body, {
        baseUrl: udirBaseUrl(register),
        pageSize: UDIR_PAGE_SIZE,
        journalPath: udirJournalPath(register),
        userAgent: 'Allmenning (udir_enheter dataset sync; https://github.com/allmenning)',
        onProgress(p) {
          // The import's own progress counts rows; this says how far the records are.
          const done = p.pagesRead === p.pages && p.done === p.wanted
          if (finished || (Date.now() - lastLine < 10_000 && !done)) return
          finished = done
          lastLine = Date.now()
          process.stderr.write(
            `\nudir_enheter ${register}: list ${p.pagesRead}/${p.pages} pages, records ${p.done}/${p.wanted} ` +
              `(${p.read} read, ${p.fromJournal} unchanged since the last sync, ${p.failed} failed)\n`,
          )
        },
      })
    },
    rows: () => (record) => unitRow(record as CrawledUnit),
  }
}

/**
 * One crawled unit as its row: the list's fields, and the position and address of its record.
 *
 * @example
 * unitRow({ register: 'nsr', item: { Organisasjonsnummer: '971200006', Navn: 'Bislett skole', ErAktiv: false }, record: null })
 * // { table: 'enheter', row: { orgnr: '971200006', aktiv: 0, posisjon: 'not_read', lat: null, ... } }
 */
export function unitRow(unit: CrawledUnit): DatasetRowsOut {
  const upstream = upstreamOf(unit.register)
  let listed
  try {
    listed = parseUnitList([unit.item], upstream, unit.register).units[0]
  } catch (error) {
    throw new DatasetRowError(`a unit of another shape: ${(error as Error).message.slice(0, 200)}`)
  }
  if (!listed) throw new DatasetRowError('a unit without Organisasjonsnummer')
  let detail
  if (unit.record) {
    try {
      detail = parseUnitDetail(unit.record, upstream)
    } catch (error) {
      throw new DatasetRowError(
        `the record of ${listed.orgnr} is of another shape: ${(error as Error).message.slice(0, 200)}`,
      )
    }
  }
  const p = detail?.position
  const placed = p !== undefined && p.lat !== null && p.lon !== null
  return {
    table: 'enheter',
    row: {
      register: unit.register,
      orgnr: listed.orgnr,
      navn: listed.name,
      fullt_navn: listed.fullName,
      kommunenr: listed.municipalityNumber,
      fylkesnr: listed.countyNumber,
      aktiv: listed.active ? 1 : 0,
      flagg: JSON.stringify(listed.flags),
      dato_endret: listed.changedAt,
      posisjon: detail ? (placed ? 'known' : 'none') : 'not_read',
      lat: placed ? p.lat : null,
      lon: placed ? p.lon : null,
      zoom: p?.zoom ?? null,
      geo_kilde: p?.geoSource ?? null,
      adresse: p?.address?.Adresse ?? null,
      postnr: p?.address?.Postnr ?? null,
      poststed: p?.address?.Poststed ?? null,
      record_endret: p?.changedAt ?? null,
      celle: placed ? gridCell(p.lat!, p.lon!) : null,
      record: unit.record ? JSON.stringify(unit.record) : null,
    },
  }
}

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
    content: registerContent(register),
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
