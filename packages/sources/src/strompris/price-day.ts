import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, createTimedMemo, UpstreamError, type UpstreamClient } from '@allmenning/core/source'
import { osloDate } from '../shared/oslo-time.js'
import type { PriceArea } from './price-areas.js'

/**
 * One row of a day's file as hvakosterstrommen.no writes it. `EUR_per_kWh` and `EXR` (the
 * exchange rate used) stand beside these and are not read. Numbers are read as JSON numbers,
 * so `1e-05` and negative prices come through as they are.
 */
const fileRow = v.looseObject({
  NOK_per_kWh: v.number(),
  time_start: v.string(),
  time_end: v.string(),
})
const dayFile = v.array(fileRow)

/** One price period of a day: hourly until the market moved to quarter-hours on 1 October 2025. */
export interface PricePeriod {
  time_start: string
  time_end: string
  NOK_per_kWh: number
}

/** A published day: its periods in time order, and their length. */
export interface PriceDay {
  date: string
  area: PriceArea
  /** Minutes per period (60 or 15), or null when the periods differ in length. */
  resolutionMinutes: number | null
  prices: PricePeriod[]
  /** The file's URL, for provenance when the day came from memory. */
  url: string
}

/** The file of one day and area: `/2026/11-25_NO1.json`. */
export const dayPath = (date: string, area: PriceArea) =>
  `/${date.slice(0, 4)}/${date.slice(5, 7)}-${date.slice(8, 10)}_${area}.json`

/** Any offset ISO 8601 time the files use (`2026-03-29T03:00:00+02:00`). */
const offsetTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * Reads one day's file. Any number of rows is accepted (24 hourly, 96 quarter-hourly, and 23,
 * 25, 92 or 100 on the days summer time starts or ends), but each must be a period that ends
 * after it starts, in time order, without gaps: a file that breaks this is a 502, not prices
 * at the wrong times.
 *
 * @example
 * const day = readPriceDay(client, body, '2026-11-25', 'NO1', url) // { resolutionMinutes: 15, prices: [96 periods] }
 */
export function readPriceDay(
  client: UpstreamClient,
  body: unknown,
  date: string,
  area: PriceArea,
  url: string,
): PriceDay {
  const rows = checkUpstreamShape(client, dayFile, body, `the prices of ${date} in ${area}`)
  if (rows.length === 0)
    throw new UpstreamError(client, 'invalid_response', `answered no prices for ${date} in ${area}`)
  const lengths = new Set<number>()
  let previousEnd: number | undefined
  for (const [index, row] of rows.entries()) {
    const start = Date.parse(row.time_start)
    const end = Date.parse(row.time_end)
    if (
      !offsetTime.test(row.time_start) ||
      !offsetTime.test(row.time_end) ||
      Number.isNaN(start) ||
      Number.isNaN(end) ||
      end <= start
    ) {
      throw new UpstreamError(
        client,
        'invalid_response',
        `answered an unreadable period for ${date} in ${area} (at ${index})`,
      )
    }
    if (previousEnd !== undefined && start !== previousEnd) {
      throw new UpstreamError(
        client,
        'invalid_response',
        `answered periods out of order or with a gap for ${date} in ${area} (at ${index})`,
      )
    }
    if (!Number.isFinite(row.NOK_per_kWh))
      throw new UpstreamError(client, 'invalid_response', `answered a price that is not a number (at ${index})`)
    previousEnd = end
    lengths.add((end - start) / 60_000)
  }
  return {
    date,
    area,
    resolutionMinutes: lengths.size === 1 ? [...lengths][0]! : null,
    prices: rows.map((row) => ({ time_start: row.time_start, time_end: row.time_end, NOK_per_kWh: row.NOK_per_kWh })),
    url,
  }
}

/** The days of one `strompris()` source: each published file is fetched once and kept. */
export interface PriceDays {
  /** The day's prices, or null when hvakosterstrommen.no has no file for it (404). */
  load(client: UpstreamClient, date: string, area: PriceArea): Promise<PriceDay | null>
}

/** A published day never changes; a day is kept this long so that memory turns over. */
const PUBLISHED_TTL_MS = 24 * 3_600_000
/** Days kept: a year of every area is some 1 800 files of 10 KB. */
const MAX_DAYS = 2000

/**
 * Creates the memo of published days. A file that exists is final (the day-ahead auction has
 * closed), so it is kept for a day; a 404 (tomorrow before the auction, or a day before the
 * service began) is never kept here, so tomorrow is asked for again until it appears (the
 * gateway remembers the 404 for its own short while).
 *
 * @example
 * const days = createPriceDays()
 * const day = await days.load(ctx.upstream(hvakosterstrommen), '2026-11-25', 'NO1')
 */
export function createPriceDays(): PriceDays {
  const memo = createTimedMemo<PriceDay | null>({ ttlMs: PUBLISHED_TTL_MS, maxEntries: MAX_DAYS })
  return {
    async load(client, date, area) {
      const key = `${date}_${area}`
      const day = await memo.get(key, async () => {
        const path = dayPath(date, area)
        const response = await client.getJson(path, { acceptStatus: [404] })
        if (response.status === 404) return null
        return readPriceDay(client, response.body, date, area, response.url)
      })
      if (day === null) memo.delete(key)
      return day
    },
  }
}

/**
 * The 404 for a day without a file: a day not yet published says so and when it usually
 * appears, as a client can then ask again later.
 *
 * @example
 * throw notPublished('2026-11-26', 'NO1', Date.now()) // 404: not published for NO1 on 2026-11-26 yet
 */
export function notPublished(date: string, area: PriceArea, now: number, endDate?: string): GatewayError {
  const today = osloDate(now)
  const days = endDate ? `from ${date} to ${endDate}` : `on ${date}`
  const message =
    date > today
      ? `hvakosterstrommen.no has not published prices for ${area} ${days} yet: a day's prices appear the day before, after the day-ahead auction (usually from about 13:00 Oslo time)`
      : `hvakosterstrommen.no has no prices for ${area} ${days}`
  return new GatewayError(404, 'entity_not_found', message)
}
