import { DatasetFileError, DatasetRowError, type DatasetRowsOut, type StreamContent } from '@allmenning/core/source'
import { gridCell } from '../../shared/grid-cell.js'
import { parseUnitDetail, parseUnitList } from '../unit-payloads.js'
import type { UdirRegister } from '../udir-upstreams.js'
import type { CrawledUnit } from './crawl-register.js'
import {
  UDIR_ENHETER_FILES,
  UDIR_PAGE_SIZE,
  udirBaseUrl,
  udirJournalPath,
  udirUpstream,
} from './udir-register-files.js'

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

/**
 * How a register's file becomes rows: the records of its units, each a row of `enheter`.
 *
 * @example
 * udirRegisterContent('nsr').format // { type: 'stream' }
 */
export function udirRegisterContent(register: UdirRegister): StreamContent {
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
  const upstream = udirUpstream(unit.register)
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
