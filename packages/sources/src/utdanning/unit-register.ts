import { createTimedMemo, type UpstreamClient } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { parseUnitDetail, parseUnitList, type ListedUnit, type UnitDetail, type UnitPosition } from './unit-payloads.js'
import type { UdirRegister } from './udir-upstreams.js'

/** An area Udir lists units of: a municipality (four digits) or a county (two). */
export interface UnitArea {
  kind: 'kommune' | 'fylke'
  number: string
}

/** An area's units as listed, and when. */
export interface UnitList {
  units: ListedUnit[]
  readAt: number
  /** Set when the register's pages went on past the most this source reads. */
  pagesLeftOut: number
  /** The register's own count, when it gave one. */
  total: number | undefined
}

/** A unit's position as known to this process. */
export interface KnownPosition {
  position: UnitPosition
  fetchedAt: number
}

/** How far the position of a unit is known. */
export type PositionState = 'known' | 'none' | 'pending'

/** Settings of {@link createUnitRegister}. */
export interface UnitRegisterOptions {
  budget: RequestBudget
  /** Longest one request waits for positions being read before it answers with what is known (2 500 ms). */
  fillSliceMs?: number
  /**
   * How long after a request starts its reads go on taking new units, after it has answered
   * (7 000 ms: below the gateway's request deadline of 10 s, which ends every call of the request).
   */
  fillWindowMs?: number
  /** Unit records read at once (4). */
  concurrency?: number
  /** How long an area's list is answered from before it is read again (6 hours). */
  listTtlMs?: number
  /** How long a unit's position is kept unless its list says the unit changed (30 days). */
  positionTtlMs?: number
  /** Clock in milliseconds; `Date.now` by default. */
  now?: () => number
}

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
/** Pages of one area read at most: a county is some thousands of units. */
const MAX_PAGES = 40
/** Positions kept at most: both registers hold some 35 000 units, active and closed. */
const MAX_POSITIONS = 80_000
/** A unit whose record could not be read is not asked for again before this. */
const FAILURE_PAUSE_MS = 60_000

const areaPath = (area: UnitArea) => `/enheter/${area.kind}/${encodeURIComponent(area.number)}`

/**
 * Udir's registers as one source instance knows them: the lists of the areas asked for (kept
 * `listTtlMs`, answered from for three days more while a new read runs) and the position of
 * every unit whose record has been read (kept `positionTtlMs`, or until the unit's list says
 * it changed after the record was read).
 *
 * Positions are only in each unit's own record, so they cost one call a unit. They are filled
 * as requests need them, within the request budget: a request waits at most `fillSliceMs` for
 * the records of its rows, answers with what is known by then, and the reads it started go on
 * until its deadline; the next request finds them. A row whose position is not read yet says
 * so (`pending`), never a made-up place.
 *
 * @example
 * const register = createUnitRegister({ budget: udirRequestBudget })
 * const { units } = await register.list(ctx.upstream(udirNsr), 'nsr', { kind: 'kommune', number: '0301' })
 * await register.fill(ctx.upstream(udirNsr), units)
 */
export function createUnitRegister(options: UnitRegisterOptions) {
  const now = options.now ?? (() => Date.now())
  const sliceMs = options.fillSliceMs ?? 2500
  const windowMs = Math.max(options.fillWindowMs ?? 7000, sliceMs)
  const concurrency = options.concurrency ?? 4
  const positionTtlMs = options.positionTtlMs ?? 30 * DAY_MS
  const lists = createTimedMemo<UnitList>({
    ttlMs: options.listTtlMs ?? 6 * HOUR_MS,
    staleMs: 3 * DAY_MS,
    staleOnErrorMs: 3 * DAY_MS,
    errorTtlMs: 30_000,
    maxEntries: 800,
    now,
  })
  const positions = new Map<string, KnownPosition>()
  const failedAt = new Map<string, number>()
  const reading = new Map<string, Promise<void>>()
  /** Every unit listed so far, by organisation number: which register it is in, and its name. */
  const seen = new Map<string, ListedUnit>()

  function keep(orgnr: string, known: KnownPosition): void {
    positions.delete(orgnr)
    positions.set(orgnr, known)
    if (positions.size > MAX_POSITIONS) positions.delete(positions.keys().next().value!)
  }

  async function loadList(client: UpstreamClient, register: UdirRegister, area: UnitArea): Promise<UnitList> {
    const first = parseUnitList((await client.getJson(areaPath(area))).body, client, register)
    const units = [...first.units]
    const last = Math.min(first.pageCount, MAX_PAGES)
    for (let page = first.page + 1; page <= last; page++) {
      await options.budget.take(client)
      const next = parseUnitList(
        (await client.getJson(areaPath(area), { query: { sidenummer: page } })).body,
        client,
        register,
      )
      units.push(...next.units)
    }
    const unique = [...new Map(units.map((u) => [u.orgnr, u])).values()]
    for (const unit of unique) seen.set(unit.orgnr, unit)
    return { units: unique, readAt: now(), pagesLeftOut: Math.max(0, first.pageCount - last), total: first.total }
  }

  function state(unit: ListedUnit): PositionState {
    const known = positions.get(unit.orgnr)
    if (!known || stale(unit, known)) return 'pending'
    return known.position.lat === null ? 'none' : 'known'
  }

  function stale(unit: ListedUnit, known: KnownPosition): boolean {
    if (now() - known.fetchedAt > positionTtlMs) return true
    // The list says the unit changed after its record was read: it may have moved.
    const changed = unit.changedAt ? Date.parse(unit.changedAt) : NaN
    const read = known.position.changedAt ? Date.parse(known.position.changedAt) : NaN
    return Number.isFinite(changed) && Number.isFinite(read) && changed > read
  }

  /** Reads one unit's record, keeping its position; undefined when the register has no such unit. */
  async function readDetail(client: UpstreamClient, orgnr: string): Promise<UnitDetail | undefined> {
    const response = await client.getJson(`/enhet/${encodeURIComponent(orgnr)}`, { acceptStatus: [404] })
    if (response.status === 404 || response.body === null || response.body === undefined || response.body === '')
      return undefined
    const detail = parseUnitDetail(response.body, client)
    keep(orgnr, { position: detail.position, fetchedAt: now() })
    return detail
  }

  function readPosition(client: UpstreamClient, unit: ListedUnit): Promise<void> {
    const running = reading.get(unit.orgnr)
    if (running) return running
    const job = (async () => {
      try {
        await options.budget.take(client)
        const detail = await readDetail(client, unit.orgnr)
        if (!detail) {
          const none = { lat: null, lon: null, zoom: null, geoSource: null, address: null, changedAt: unit.changedAt }
          keep(unit.orgnr, { position: none, fetchedAt: now() })
        }
        failedAt.delete(unit.orgnr)
      } catch {
        // Left for a later request: a spent budget, a timeout or a 5xx says nothing about the unit.
        failedAt.set(unit.orgnr, now())
      } finally {
        reading.delete(unit.orgnr)
      }
    })()
    reading.set(unit.orgnr, job)
    return job
  }

  return {
    /** An area's units: as last read, or read now. */
    list(client: UpstreamClient, register: UdirRegister, area: UnitArea): Promise<UnitList> {
      return lists.get(`${register}:${area.kind}:${area.number}`, () => loadList(client, register, area))
    },

    /** How far a unit's position is known. */
    state,

    /** A unit's position, when its record has been read. */
    position(orgnr: string): KnownPosition | undefined {
      return positions.get(orgnr)
    },

    /** The unit with this organisation number among those listed so far. */
    listed(orgnr: string): ListedUnit | undefined {
      return seen.get(orgnr)
    },

    /** Every unit listed so far (for the entity search, which never reads a list itself). */
    allListed(): IterableIterator<ListedUnit> {
      return seen.values()
    },

    /**
     * Reads the records of the units whose position is not known (the first ones first), within
     * the request budget: waits at most `fillSliceMs`, and the reads go on for up to
     * `fillWindowMs` after it has returned (in the background of the request).
     */
    async fill(client: UpstreamClient, units: ListedUnit[]): Promise<void> {
      const started = now()
      const wanted = units.filter(
        (u) => state(u) === 'pending' && !(now() - (failedAt.get(u.orgnr) ?? -Infinity) < FAILURE_PAUSE_MS),
      )
      if (wanted.length === 0) return
      let next = 0
      const worker = async () => {
        while (next < wanted.length && now() - started < windowMs) await readPosition(client, wanted[next++]!)
      }
      const all = Promise.all(Array.from({ length: concurrency }, worker))
      let timer: ReturnType<typeof setTimeout> | undefined
      const slice = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, sliceMs)
      })
      try {
        await Promise.race([all, slice])
      } finally {
        clearTimeout(timer)
      }
    },

    /**
     * One unit's record from a register (kept as its position), or undefined when that register
     * has no unit with the number. Not memoized here: the operation's answer is cached.
     */
    async detail(client: UpstreamClient, orgnr: string): Promise<UnitDetail | undefined> {
      await options.budget.take(client)
      return readDetail(client, orgnr)
    },

    /** Units whose record is being read now (for tests and metrics). */
    get reading(): number {
      return reading.size
    },
  }
}

/** The register of one `utdanning()` source. */
export type UnitRegister = ReturnType<typeof createUnitRegister>
