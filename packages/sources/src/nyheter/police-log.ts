import * as v from 'valibot'
import { checkUpstreamShape, createTimedMemo, type UpstreamClient } from '@allmenning/core/source'

/** The path of Politiloggen's message list. */
export const MESSAGES_PATH = '/messages'

/** Politiloggen gives at most 50 messages a page (`Take`). */
export const PAGE_SIZE = 50

/** Most pages one read of the log takes: 8 × 50 = the 400 newest messages that match. */
export const MAX_PAGES = 8

const text = v.nullish(v.string())

/** One message as Politiloggen sends it (both of its APIs use these names). */
const upstreamMessage = v.looseObject({
  id: v.union([v.string(), v.number()]),
  threadId: v.nullish(v.union([v.string(), v.number()])),
  category: text,
  district: text,
  municipality: text,
  area: text,
  isActive: v.nullish(v.boolean()),
  text,
  createdOn: v.string(),
  updatedOn: text,
})

/**
 * A page of `/messages`: `{messages[], totalCount}` from api.politiloggen.politiet.no, or
 * `{data[], metadata: {totalItems}}` from the older api.politiet.no/politiloggen/v1.
 */
const messagePage = v.pipe(
  v.looseObject({
    messages: v.optional(v.array(upstreamMessage)),
    totalCount: v.nullish(v.number()),
    data: v.optional(v.array(upstreamMessage)),
    metadata: v.nullish(v.looseObject({ totalItems: v.nullish(v.number()) })),
  }),
  v.check((page) => page.messages !== undefined || page.data !== undefined, 'has neither messages nor data'),
)

/** One police log message, read. */
export interface PoliceMessage {
  id: string
  threadId: string | null
  category: string | null
  district: string | null
  municipality: string | null
  area: string | null
  isActive: boolean | null
  text: string | null
  /** Milliseconds since the epoch. */
  createdAt: number
  updatedAt: number | null
}

/** What one read of the log found. */
export interface PoliceLogRead {
  messages: PoliceMessage[]
  /** True when the page cap ended the read while older matching messages remained. */
  capped: boolean
  /** Messages left out because their `createdOn` was no time. */
  undated: number
  /** The URL of the first page, for provenance. */
  url: string
}

/** The filters Politiloggen applies itself. */
export interface PoliceLogQuery {
  /** `DateFrom`, a day (`YYYY-MM-DD`): the API takes days only, so the exact time is filtered here. */
  dateFrom: string
  since: number
  district?: string | undefined
  municipality?: string | undefined
  category?: string | undefined
}

const clean = (s: string | null | undefined) => (s?.trim() ? s.trim() : null)
const idText = (id: string | number | null | undefined) => (id === null || id === undefined ? null : String(id))

function toMessage(m: v.InferOutput<typeof upstreamMessage>): PoliceMessage | null {
  const createdAt = Date.parse(m.createdOn)
  if (!Number.isFinite(createdAt)) return null
  const updatedAt = m.updatedOn ? Date.parse(m.updatedOn) : NaN
  return {
    id: String(m.id),
    threadId: idText(m.threadId),
    category: clean(m.category),
    district: clean(m.district),
    municipality: clean(m.municipality),
    area: clean(m.area),
    isActive: m.isActive ?? null,
    text: clean(m.text),
    createdAt,
    updatedAt: Number.isFinite(updatedAt) ? updatedAt : null,
  }
}

/**
 * Reads one page of `/messages`, newest first.
 *
 * @example
 * const page = await readMessagePage(client, { dateFrom: '2026-11-27', since: Date.parse('2026-11-28T08:00:00Z') }, 0)
 */
export async function readMessagePage(client: UpstreamClient, query: PoliceLogQuery, skip: number) {
  const response = await client.getJson(MESSAGES_PATH, {
    query: {
      DateFrom: query.dateFrom,
      Districts: query.district,
      Municipalities: query.municipality,
      Categories: query.category,
      SortBy: 'Date',
      SortOrder: 'Descending',
      Skip: skip,
      Take: PAGE_SIZE,
    },
  })
  const page = checkUpstreamShape(client, messagePage, response.body, 'the police log messages')
  const rows = page.messages ?? page.data ?? []
  const total = page.messages ? page.totalCount : page.metadata?.totalItems
  const read = rows.map(toMessage)
  return {
    messages: read.filter((m): m is PoliceMessage => m !== null),
    undated: read.filter((m) => m === null).length,
    rows: rows.length,
    total,
    url: response.url,
  }
}

/**
 * Reads the log's newest messages since `query.since`, page by page, until a page is short,
 * the total is reached, the oldest message read is older than `since`, or {@link MAX_PAGES}.
 *
 * @example
 * const { messages, capped } = await readPoliceLog(client, { dateFrom: '2026-11-27', since: Date.now() - 86_400_000 })
 */
export async function readPoliceLog(client: UpstreamClient, query: PoliceLogQuery): Promise<PoliceLogRead> {
  const messages: PoliceMessage[] = []
  let undated = 0
  let url = ''
  for (let page = 0; page < MAX_PAGES; page++) {
    const read = await readMessagePage(client, query, page * PAGE_SIZE)
    if (page === 0) url = read.url
    messages.push(...read.messages)
    undated += read.undated
    const oldest = Math.min(...read.messages.map((m) => m.createdAt))
    const done =
      read.rows < PAGE_SIZE || (read.total != null && (page + 1) * PAGE_SIZE >= read.total) || oldest < query.since
    if (done) return { messages: dedupe(messages), capped: false, undated, url }
  }
  return { messages: dedupe(messages), capped: true, undated, url }
}

// A message edited between two pages can appear on both.
const dedupe = (messages: PoliceMessage[]) => [...new Map(messages.map((m) => [m.id, m])).values()]

const SINCE_STEP_MS = 600_000

/**
 * Reads of the log kept a minute, shared by every request that asks the same filters: the log
 * is live, but a minute-old list placed anywhere in Norway serves every point.
 *
 * @example
 * const log = createPoliceLogCache()
 * const read = await log.read(client, { dateFrom: '2026-11-27', since: Date.now() - 86_400_000 })
 */
export function createPoliceLogCache(ttlMs = 60_000) {
  const memo = createTimedMemo<PoliceLogRead>({ ttlMs, errorTtlMs: 10_000, maxEntries: 200 })
  return {
    read(client: UpstreamClient, query: PoliceLogQuery): Promise<PoliceLogRead> {
      // Read back to the 10 minutes that hold `since`, so that the default (the last 24 hours,
      // a new instant each call) shares one read; the exact `since` is filtered after it.
      const since = Math.floor(query.since / SINCE_STEP_MS) * SINCE_STEP_MS
      const key = [query.dateFrom, since, query.district ?? '', query.municipality ?? '', query.category ?? ''].join(
        '|',
      )
      return memo.get(key, () => readPoliceLog(client, { ...query, since }))
    },
  }
}

/** What {@link createPoliceLogCache} gives. */
export type PoliceLogCache = ReturnType<typeof createPoliceLogCache>
