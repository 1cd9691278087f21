import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatasetFileError } from '@allmenning/core/source'
import type { UdirRegister } from '../udir-upstreams.js'
import { isKindergarten, isSchool } from '../unit-kinds.js'

/** One unit as the crawl gives it to the import: its list item and, when read, its own record. */
export interface CrawledUnit {
  register: UdirRegister
  /** The unit as the register's list gives it (flags, municipality, `DatoEndret`). */
  item: Record<string, unknown>
  /** `/enhet/{orgnr}`, when it was read (or taken from the journal); null when it was not. */
  record: Record<string, unknown> | null
}

/** How far a crawl has come, for the line it writes now and then. */
export interface CrawlProgress {
  register: UdirRegister
  pages: number
  pagesRead: number
  wanted: number
  done: number
  fromJournal: number
  read: number
  failed: number
}

/** Settings of {@link crawlRegister}. */
export interface CrawlOptions {
  /** The register's API, `https://data-nsr.udir.no/v4` or the NBR's. */
  baseUrl: string
  /** Units per list page, as the first page was asked for (1000, the most v4 gives). */
  pageSize: number
  /**
   * The journal: every record read is appended as it comes, so a crawl cut short keeps what it
   * read, and the next one (and every later sync) reads again only the units whose `DatoEndret`
   * changed, or whose record is older than `refreshAfterMs`.
   */
  journalPath: string
  userAgent: string
  /** Calls started a second at most (10). */
  requestsPerSecond?: number
  /** Calls at once (4). */
  concurrency?: number
  /** A record kept longer than this is read again even when its unit did not change (30 days). */
  refreshAfterMs?: number
  /** Units that failed in a row (after retries) before the crawl stops (8). */
  maxFailuresInARow?: number
  /** Longest one call may take (30 s). */
  timeoutMs?: number
  /** Waits before the two retries of a failed call, in ms ([500, 1500]). */
  retryDelaysMs?: number[]
  onProgress?: (progress: CrawlProgress) => void
  fetch?: typeof fetch
  now?: () => number
}

interface JournalEntry {
  orgnr: string
  changedAt: string | null
  readAt: number
  record: Record<string, unknown> | null
}

/** Most list pages read: the school register is some 19 pages of 1000. */
const MAX_PAGES = 200
const DAY_MS = 86_400_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)

/** A unit's organisation number as a list item spells it. */
export function orgnrOf(item: Record<string, unknown>): string | null {
  return text(item.Organisasjonsnummer ?? item.Orgnr ?? item.OrgNr)
}

function flagsOf(item: Record<string, unknown>): Record<string, boolean> {
  const flags: Record<string, boolean> = {}
  for (const [key, value] of Object.entries(item))
    if (/^Er[A-Z]/.test(key) && typeof value === 'boolean') flags[key] = value
  return flags
}

/**
 * Whether the crawl reads a unit's record: units in operation that the searches show (schools
 * of NSR, kindergartens of NBR). Closed units and owners are listed without one.
 *
 * @example
 * wantsRecord('nsr', { ErAktiv: true, ErSkole: true, ErGrunnskole: true }) // true
 */
export function wantsRecord(register: UdirRegister, item: Record<string, unknown>): boolean {
  if (item.ErAktiv !== true) return false
  const flags = flagsOf(item)
  return register === 'nsr' ? isSchool(flags) : isKindergarten(flags)
}

function readJournal(path: string): Map<string, JournalEntry> {
  const entries = new Map<string, JournalEntry>()
  if (!existsSync(path)) return entries
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    try {
      const entry = JSON.parse(line) as JournalEntry
      if (typeof entry.orgnr === 'string') entries.set(entry.orgnr, entry)
    } catch {
      // A line cut off when a crawl was killed mid-write: that unit is read again.
    }
  }
  return entries
}

/** Starts at most `perSecond` calls a second, spaced evenly. */
function createPacer(perSecond: number, now: () => number) {
  const gap = 1000 / perSecond
  let next = 0
  return async () => {
    const at = Math.max(now(), next)
    next = at + gap
    const wait = at - now()
    if (wait > 0) await sleep(wait)
  }
}

/**
 * Reads one of Udir's registers whole, within a request budget: the list's pages (the first
 * one is what `sync` downloaded), then the record of every unit in operation the searches
 * show, since only a unit's own record carries its position. The records come from the
 * journal where the unit has not changed since it was read, so a daily sync reads some 40
 * list pages and the records of the units that changed; a first sync reads some 5,700 school
 * and 5,500 kindergarten records (about 20 minutes at 10 a second).
 *
 * Each unit is yielded once, in list order, with its record or null (closed, an owner, gone
 * (404), or failed after two retries with no earlier record in the journal: it is read again
 * by the next sync). After
 * `maxFailuresInARow` failed units the crawl stops with a {@link DatasetFileError}: the import
 * keeps the loaded version, and the journal keeps what was read.
 *
 * @example
 * const firstPage: unknown = await (await fetch('https://data-nsr.udir.no/v4/enheter?sidenummer=1&antallperside=1000')).json()
 * const options = { baseUrl: 'https://data-nsr.udir.no/v4', pageSize: 1000, journalPath: 'data/nsr.jsonl', userAgent: 'my-app' }
 * for await (const unit of crawlRegister('nsr', firstPage, options)) console.log(unit.item.Navn, unit.record !== null)
 */
export async function* crawlRegister(
  register: UdirRegister,
  firstPage: unknown,
  options: CrawlOptions,
): AsyncGenerator<CrawledUnit> {
  const http = options.fetch ?? fetch
  const now = options.now ?? (() => Date.now())
  const pace = createPacer(options.requestsPerSecond ?? 10, now)
  const concurrency = options.concurrency ?? 4
  const refreshAfterMs = options.refreshAfterMs ?? 30 * DAY_MS
  const maxFailures = options.maxFailuresInARow ?? 8
  const delays = options.retryDelaysMs ?? [500, 1500]
  const name = register === 'nsr' ? "Udir's school register (NSR)" : "Udir's kindergarten register (NBR)"

  async function get(path: string): Promise<{ status: number; body: unknown }> {
    let last = ''
    for (let attempt = 0; attempt <= delays.length; attempt++) {
      if (attempt > 0) await sleep(delays[attempt - 1]!)
      await pace()
      try {
        const response = await http(`${options.baseUrl}${path}`, {
          headers: { accept: 'application/json', 'user-agent': options.userAgent },
          // A register that hangs must not hold the sync: the call counts as failed.
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        })
        if (response.status === 404) return { status: 404, body: null }
        if (response.ok) return { status: response.status, body: await response.json() }
        last = `HTTP ${response.status}`
        // 4xx other than 404 and 429 will not get better by asking again.
        if (response.status < 500 && response.status !== 429) break
      } catch (error) {
        last = (error as Error).message
      }
    }
    throw new Error(`${path}: ${last}`)
  }

  const pageOf = (body: unknown, page: number) => {
    const list = body as { EnhetListe?: unknown; AntallSider?: unknown }
    if (typeof body !== 'object' || body === null || !Array.isArray(list.EnhetListe)) {
      throw new DatasetFileError(`page ${page} of ${name}'s list is not a v4 page of units (no EnhetListe)`)
    }
    return {
      items: list.EnhetListe as Record<string, unknown>[],
      pages: typeof list.AntallSider === 'number' ? list.AntallSider : 1,
    }
  }

  const first = pageOf(firstPage, 1)
  const pages = Math.min(first.pages, MAX_PAGES)
  if (first.pages > MAX_PAGES)
    throw new DatasetFileError(`${name} lists ${first.pages} pages, more than the ${MAX_PAGES} this crawl reads`)
  const items = [...first.items]
  const progress: CrawlProgress = {
    register,
    pages,
    pagesRead: 1,
    wanted: 0,
    done: 0,
    fromJournal: 0,
    read: 0,
    failed: 0,
  }
  for (let page = 2; page <= pages; page++) {
    let body: unknown
    try {
      body = (await get(`/enheter?sidenummer=${page}&antallperside=${options.pageSize}`)).body
    } catch (error) {
      throw new DatasetFileError(
        `${name}: list page ${page} of ${pages} could not be read (${(error as Error).message})`,
      )
    }
    items.push(...pageOf(body, page).items)
    progress.pagesRead = page
    options.onProgress?.(progress)
  }
  // A unit on two pages (the list shifting while it is read) is one unit.
  const units = [...new Map(items.map((item) => [orgnrOf(item), item] as const)).entries()].filter(
    ([orgnr]) => orgnr !== null,
  ) as [string, Record<string, unknown>][]
  progress.wanted = units.filter(([, item]) => wantsRecord(register, item)).length

  mkdirSync(dirname(options.journalPath), { recursive: true })
  const journal = readJournal(options.journalPath)
  let failuresInARow = 0

  async function recordOf(orgnr: string, item: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    if (!wantsRecord(register, item)) return null
    const changedAt = text(item.DatoEndret)
    const kept = journal.get(orgnr)
    if (kept && kept.changedAt === changedAt && now() - kept.readAt < refreshAfterMs) {
      progress.fromJournal++
      return kept.record
    }
    try {
      const { body } = await get(`/enhet/${encodeURIComponent(orgnr)}`)
      const record =
        typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null
      const entry: JournalEntry = { orgnr, changedAt, readAt: now(), record }
      journal.set(orgnr, entry)
      appendFileSync(options.journalPath, `${JSON.stringify(entry)}\n`)
      progress.read++
      failuresInARow = 0
      return record
    } catch (error) {
      progress.failed++
      if (++failuresInARow >= maxFailures) {
        throw new DatasetFileError(
          `${name} failed ${failuresInARow} records in a row (last: ${(error as Error).message}); the ${progress.read + progress.fromJournal} ` +
            `records read are kept in ${options.journalPath}, and the next sync goes on from there`,
        )
      }
      // The record read by an earlier sync, though the unit changed since, is better than none.
      return kept?.record ?? null
    }
  }

  // A small window of units at a time: their records are read `concurrency` at once, then yielded
  // in order. The import checks for an abort (Ctrl-C) between the units it is given, so a window
  // is about a second of calls at most.
  const window = concurrency * 2
  for (let start = 0; start < units.length; start += window) {
    const slice = units.slice(start, start + window)
    const records: (Record<string, unknown> | null)[] = new Array(slice.length).fill(null)
    let next = 0
    let failure: unknown
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < slice.length && failure === undefined) {
          const i = next++
          const [orgnr, item] = slice[i]!
          try {
            records[i] = await recordOf(orgnr, item)
          } catch (error) {
            failure = error
          }
        }
      }),
    )
    if (failure !== undefined) throw failure
    for (let i = 0; i < slice.length; i++) {
      if (wantsRecord(register, slice[i]![1])) progress.done++
      yield { register, item: slice[i]![1], record: records[i]! }
    }
    options.onProgress?.(progress)
  }
  // The crawl went through: the journal is written again with the units the register still lists.
  const listed = new Set(units.map(([orgnr]) => orgnr))
  const kept = [...journal.values()].filter((entry) => listed.has(entry.orgnr))
  writeFileSync(`${options.journalPath}.tmp`, kept.map((entry) => `${JSON.stringify(entry)}\n`).join(''))
  renameSync(`${options.journalPath}.tmp`, options.journalPath)
}
