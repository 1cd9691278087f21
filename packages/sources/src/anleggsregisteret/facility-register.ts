import * as v from 'valibot'
import {
  checkUpstreamShape,
  createTimedMemo,
  listSizeCheck,
  UpstreamError,
  type PlausibilityCheck,
  type UpstreamClient,
} from '@allmenning/core/source'
import { municipalityKey } from '../shared/kommuneinfo.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { anleggsregisteretApi } from './anleggsregisteret-upstream.js'
import { judgePositions, type PositionQuality } from './facility-positions.js'

/** The register's facility list, paged. */
export const FACILITIES_PATH = '/facilities'

/** Facilities per page, as OpenStreetMap Norway's import reads them (the largest size known to work). */
export const PAGE_SIZE = 500

/**
 * The headers the register's own pages send: its back office answers the "Finn anlegg" page's
 * XMLHttpRequests. The gateway's identifying User-Agent goes with them; no browser is imitated.
 */
export const FACILITY_HEADERS = { 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' } as const

const text = v.nullish(v.string())
// Numbers in every client's reading; text with a decimal comma is read too, should the back office change its serializer.
const decimalText = v.pipe(
  v.string(),
  v.transform((s) => (s.trim() === '' ? null : Number(s.trim().replace(',', '.')))),
)
const decimal = v.nullish(v.union([v.number(), decimalText]))
const facilityRow = v.looseObject({
  facilityId: v.nullish(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))])),
  name: text,
  status: text,
  latitude: decimal,
  longitude: decimal,
  municipalityName: text,
  countyName: text,
  ownerName: text,
  operatorName: text,
  categoryDescription: text,
  typeDescription: text,
})
const springPage = v.looseObject({
  content: v.array(facilityRow),
  last: v.boolean(),
  totalPages: v.optional(v.number()),
  totalElements: v.optional(v.number()),
})

/** One facility as the register gives it, checked. */
export type FacilityRow = v.InferOutput<typeof facilityRow>

/** One page of the register. */
export interface FacilityPage {
  rows: FacilityRow[]
  last: boolean
  totalPages: number | undefined
  totalElements: number | undefined
}

/**
 * Checks one Spring Data page of the register: a 502 naming Anleggsregisteret when it is not
 * `{content[], last}`.
 *
 * @example
 * parseFacilityPage(response.body, client).rows.length // 500
 */
export function parseFacilityPage(body: unknown, upstream: { id: string; name: string }): FacilityPage {
  const page = checkUpstreamShape(upstream, springPage, body, 'the facility page')
  return { rows: page.content, last: page.last, totalPages: page.totalPages, totalElements: page.totalElements }
}

/** One facility as this source keeps it, its position judged. */
export interface Facility {
  id: number
  name: string | null
  status: string | null
  type: string | null
  category: string | null
  municipality: string | null
  county: string | null
  owner: string | null
  operator: string | null
  lat: number | null
  lon: number | null
  positionQuality: PositionQuality
  positionNote: string | null
}

/** The whole register, as loaded. */
export interface FacilityRegister {
  facilities: Facility[]
  /** The facilities of each municipality, by {@link municipalityKey} of the register's name. */
  byMunicipality: Map<string, Facility[]>
  /** When the load finished, in milliseconds since the epoch. */
  loadedAt: number
  /** The register's own count (`totalElements` of its first page), when it gave one. */
  totalElements: number | undefined
  /** Rows without a facility id, left out. */
  withoutId: number
}

const clean = (s: string | null | undefined) => (s && s.trim() !== '' ? s.trim() : null)

/**
 * The register from its pages: one facility per id (a facility that moved between pages while
 * they were read is kept once), positions judged against each municipality's others.
 *
 * @example
 * const register = buildRegister([rows], undefined, Date.now())
 */
export function buildRegister(
  pages: FacilityRow[][],
  totalElements: number | undefined,
  loadedAt: number,
): FacilityRegister {
  const seen = new Map<number, FacilityRow>()
  let withoutId = 0
  for (const row of pages.flat()) {
    if (row.facilityId === null || row.facilityId === undefined) withoutId++
    else seen.set(row.facilityId, row)
  }
  const rows = [...seen.values()]
  const group = (row: FacilityRow) =>
    `${municipalityKey(row.municipalityName ?? '')}|${municipalityKey(row.countyName ?? '')}`
  const positions = judgePositions(
    rows.map((row) => ({ lat: row.latitude ?? null, lon: row.longitude ?? null, group: group(row) })),
  )
  const facilities = rows.map((row, i): Facility => {
    const position = positions[i]!
    return {
      id: row.facilityId!,
      name: clean(row.name),
      status: clean(row.status),
      type: clean(row.typeDescription),
      category: clean(row.categoryDescription),
      municipality: clean(row.municipalityName),
      county: clean(row.countyName),
      owner: clean(row.ownerName),
      operator: clean(row.operatorName),
      lat: position.lat,
      lon: position.lon,
      positionQuality: position.quality,
      positionNote: position.note,
    }
  })
  const byMunicipality = new Map<string, Facility[]>()
  for (const facility of facilities) {
    const key = municipalityKey(facility.municipality ?? '')
    const list = byMunicipality.get(key) ?? []
    list.push(facility)
    byMunicipality.set(key, list)
  }
  return { facilities, byMunicipality, loadedAt, totalElements, withoutId }
}

/** Settings of {@link createFacilityRegister}. */
export interface FacilityRegisterOptions {
  budget: RequestBudget
  /** Pages read at once. */
  concurrency?: number
  /**
   * Longest one request spends reading pages before it stops and answers that the register is
   * still being read; below the gateway's request deadline (10 s by default), so that answer is
   * the gateway's own and the pages read so far are kept for the next request.
   */
  sliceMs?: number
  /** How long a loaded register is answered from before it is read again (in the background). */
  ttlMs?: number
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number
}

/** Pages read so far of a load that spans requests. */
interface Progress {
  startedAt: number
  pages: Map<number, FacilityRow[]>
  lastIndex: number | undefined
  totalPages: number | undefined
  totalElements: number | undefined
}

const HOUR_MS = 3_600_000

/** Pages read longer ago than this are read again: the register's order may have moved under them. */
const PROGRESS_MAX_AGE_MS = 30 * 60_000

/**
 * A register whose count of facilities falls short of what its first page said it has was cut
 * off while it was read; with none to compare, an empty register is refused too.
 */
function completeRegister(): PlausibilityCheck<FacilityRegister> {
  const size = listSizeCheck<FacilityRegister>({
    upstream: anleggsregisteretApi,
    what: 'facility register',
    count: (r) => r.facilities.length,
  })
  return (register, previous) => {
    const problem = size(register, previous)
    if (problem) return problem
    const expected = register.totalElements
    if (expected !== undefined && register.facilities.length + register.withoutId < expected * 0.9) {
      const reason = `sent ${register.facilities.length} facilities where its pages said ${expected}; the register is read again shortly`
      return new UpstreamError(anleggsregisteretApi, 'invalid_response', reason)
    }
    return undefined
  }
}

/**
 * The whole of Anleggsregisteret, read page by page and shared by every request of one source
 * instance: kept `ttlMs` (12 hours by default), then answered from for up to three days more
 * while a background read replaces it. The back office cannot filter by municipality, so this
 * is the only way to a municipality's facilities with a bounded number of calls: about one
 * hundred pages per 12 hours, within the request budget.
 *
 * Reading them all takes longer than one request may wait. A request reads for at most
 * `sliceMs`, keeps the pages it got, and — while the register has never been read whole —
 * answers a 502 `upstream_busy` that says how far the reading has come, with `Retry-After`;
 * the next request goes on from there. Once read, answers never wait for a read again.
 *
 * @example
 * const register = createFacilityRegister({ budget: anleggsregisteretRequestBudget })
 * const { byMunicipality } = await register.get(ctx.upstream(anleggsregisteretApi))
 */
export function createFacilityRegister(options: FacilityRegisterOptions) {
  const now = options.now ?? (() => Date.now())
  const concurrency = options.concurrency ?? 3
  const sliceMs = options.sliceMs ?? 7000
  let progress: Progress | undefined

  const memo = createTimedMemo<FacilityRegister>({
    ttlMs: options.ttlMs ?? 12 * HOUR_MS,
    staleMs: 3 * 24 * HOUR_MS,
    // A read that ran out of time is remembered for a second, so a burst of requests does not
    // start a slice each; the next one after that goes on reading.
    errorTtlMs: 1000,
    maxEntries: 1,
    plausible: completeRegister(),
    now,
  })

  async function readPage(client: UpstreamClient, state: Progress, index: number): Promise<void> {
    await options.budget.take(client)
    const response = await client.getJson(FACILITIES_PATH, {
      query: { page: index, size: PAGE_SIZE },
      headers: { ...FACILITY_HEADERS },
    })
    const page = parseFacilityPage(response.body, client)
    state.pages.set(index, page.rows)
    if (page.totalPages !== undefined) state.totalPages = page.totalPages
    if (index === 0 && page.totalElements !== undefined) state.totalElements = page.totalElements
    // An empty page that does not say it is the last would have the reading go on for ever.
    if (page.last || page.rows.length === 0) state.lastIndex = Math.min(state.lastIndex ?? index, index)
  }

  async function load(client: UpstreamClient): Promise<FacilityRegister> {
    const started = now()
    if (!progress || started - progress.startedAt > PROGRESS_MAX_AGE_MS) {
      progress = {
        startedAt: started,
        pages: new Map(),
        lastIndex: undefined,
        totalPages: undefined,
        totalElements: undefined,
      }
    }
    const state = progress
    const inFlight = new Map<number, Promise<void>>()
    const highest = () => Math.max(-1, ...state.pages.keys())
    const complete = () =>
      state.lastIndex !== undefined &&
      Array.from({ length: state.lastIndex + 1 }, (_, i) => i).every((i) => state.pages.has(i))
    const next = (): number | undefined => {
      const end =
        state.lastIndex ?? (state.totalPages !== undefined ? Math.max(state.totalPages - 1, highest()) : highest())
      for (let i = 0; i <= end; i++) if (!state.pages.has(i) && !inFlight.has(i)) return i
      // The end is not known yet: one page further at a time.
      if (state.lastIndex === undefined && inFlight.size === 0) return end + 1
      return undefined
    }
    let failure: unknown
    const worker = async () => {
      while (failure === undefined && !complete() && now() - started < sliceMs) {
        const index = next()
        if (index === undefined) {
          if (inFlight.size === 0) return
          await Promise.race(inFlight.values()).catch(() => undefined)
          continue
        }
        const reading = readPage(client, state, index).finally(() => inFlight.delete(index))
        inFlight.set(index, reading)
        try {
          await reading
        } catch (error) {
          failure ??= error
        }
      }
    }
    if (!state.pages.has(0)) await readPage(client, state, 0)
    await Promise.all(Array.from({ length: concurrency }, worker))
    if (failure !== undefined) throw failure
    if (!complete()) {
      const read = state.pages.size
      const total = state.lastIndex !== undefined ? state.lastIndex + 1 : state.totalPages
      const perSecond = read / Math.max((now() - state.startedAt) / 1000, 1)
      const seconds =
        total !== undefined ? Math.min(Math.max(Math.ceil((total - read) / Math.max(perSecond, 0.5)), 1), 120) : 10
      throw new UpstreamError(
        client,
        'busy',
        `is being read page by page (${read} of ${total ?? 'an unknown number of'} pages so far): it cannot be asked for one ` +
          `municipality, so the gateway reads the whole register once every ${Math.round((options.ttlMs ?? 12 * HOUR_MS) / HOUR_MS)} hours; ` +
          `try again in about ${seconds} s`,
        undefined,
        { retryAfterSeconds: seconds },
      )
    }
    const pages = Array.from({ length: state.lastIndex! + 1 }, (_, i) => state.pages.get(i)!)
    progress = undefined
    return buildRegister(pages, state.totalElements, now())
  }

  return {
    /** The register: as last read, or read now (in slices, see above) when none has been read. */
    get(client: UpstreamClient): Promise<FacilityRegister> {
      return memo.get('register', () => load(client))
    },
    /** How far an unfinished read has come, for tests and metrics. */
    progress(): { pagesRead: number; totalPages: number | undefined } | undefined {
      if (!progress) return undefined
      return {
        pagesRead: progress.pages.size,
        totalPages: progress.lastIndex !== undefined ? progress.lastIndex + 1 : progress.totalPages,
      }
    },
  }
}

/** The memoized register of one `anleggsregisteret()` source. */
export type FacilityRegisterCache = ReturnType<typeof createFacilityRegister>
