import { existsSync } from 'node:fs'
import { fakeReply, fixtureFiles, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'
import { addDays, osloDate, osloOffset } from '../../shared/oslo-time.js'

const fixturesUrl = new URL('./fixtures/', import.meta.url)
const fixtures = fixtureFiles(fixturesUrl)

/** The day the quarter-hour market began: earlier days have hourly rows. */
const QUARTER_HOURS_FROM = '2025-10-01'
/** The fake has no day before this one (the real service's first day is not documented; assumed). */
const FIRST_DAY = '2021-12-01'
/** Exchange rate the fake writes beside every price. */
const EXR = 11.4217
const AREA_LEVEL: Record<string, number> = { NO1: 0.9214, NO2: 0.8877, NO3: 0.4102, NO4: 0.1835, NO5: 0.8631 }

/** Oslo local midnight starting `date`, in ms. Summer time changes at 01:00 UTC, so three hours before UTC midnight has the day's first offset. */
function osloMidnight(date: string): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`)
  return Date.parse(`${date}T00:00:00${osloOffset(utcMidnight - 3 * 3_600_000)}`)
}

/** An instant as the files write it: Oslo local time with its offset, `2026-03-29T03:00:00+02:00`. */
function osloTime(ms: number): string {
  const offset = osloOffset(ms)
  const minutes = (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)))
  return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 19)}${offset}`
}

/**
 * A day's file as hvakosterstrommen.no writes it: a bare JSON array on one line, one row per
 * period from Oslo midnight to Oslo midnight (so 23 or 25 hourly rows, 92 or 100 quarter-hours,
 * on the days summer time starts and ends), each `{NOK_per_kWh, EUR_per_kWh, EXR, time_start,
 * time_end}`. The prices are made up: a daily curve around a level per area.
 *
 * @example
 * priceFile('2026-03-29', 'NO1') // '[{"NOK_per_kWh":0.71234,...,"time_start":"2026-03-29T00:00:00+01:00",...}, ...]' (92 rows)
 */
export function priceFile(date: string, area: string): string {
  const stepMs = (date < QUARTER_HOURS_FROM ? 60 : 15) * 60_000
  const start = osloMidnight(date)
  const end = osloMidnight(addDays(date, 1))
  const rows: string[] = []
  for (let t = start; t < end; t += stepMs) {
    const hour = (t - start) / 3_600_000
    const nok =
      Math.round(
        ((AREA_LEVEL[area] ?? 0.5) +
          0.35 * Math.sin(((hour - 6) / 24) * 2 * Math.PI) +
          (Number(date.slice(8)) % 7) * 0.013) *
          1e5,
      ) / 1e5
    const eur = Math.round((nok / EXR) * 1e5) / 1e5
    rows.push(
      JSON.stringify({
        NOK_per_kWh: nok,
        EUR_per_kWh: eur,
        EXR,
        time_start: osloTime(t),
        time_end: osloTime(t + stepMs),
      }),
    )
  }
  return `[${rows.join(',')}]`
}

/** A local hvakosterstrommen.no, with the last day it has published. */
export interface FakeHvakosterstrommen extends FakeUpstream {
  /**
   * The last day with a file, `YYYY-MM-DD`. By default today in Oslo before 13:00 and
   * tomorrow after, as the real service publishes; set it to play a day not yet published.
   */
  publishedThrough: string | undefined
}

const osloHour = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Oslo', hour: '2-digit', hourCycle: 'h23' })

const notFoundPage =
  '<!DOCTYPE html><html lang="no"><head><title>404: Denne siden finnes ikke</title></head><body><h1>404</h1><p>Denne siden finnes ikke.</p></body></html>'

/**
 * Starts a local hvakosterstrommen.no under `/api/v1/prices`, answering
 * `/{YYYY}/{MM}-{DD}_{AREA}.json` with the recorded-format files of `fixtures/` where one
 * exists (a 23-hour and a 25-hour day, a 92- and a 96-quarter-hour day, with a negative price
 * and one written in exponent notation) and a made-up day in the same format otherwise; a day
 * after `publishedThrough` or before the first day, a malformed name or an unknown area is an
 * HTML 404 page, as a static site answers a missing file.
 *
 * @example
 * const fake = await startFakeHvakosterstrommen()
 * createTestGateway({ sources: strompris(), upstreams: { hvakosterstrommen: fake } })
 */
export async function startFakeHvakosterstrommen(): Promise<FakeHvakosterstrommen> {
  const fake = (await startFakeUpstream(
    {
      '/{year}/{file}': (_url, _req, params) => {
        const match = /^(\d{2})-(\d{2})_(NO[1-5])\.json$/.exec(params.file ?? '')
        if (!match || !/^\d{4}$/.test(params.year ?? '')) return fakeReply.html(notFoundPage, { status: 404 })
        const date = `${params.year}-${match[1]}-${match[2]}`
        const now = Date.now()
        const through =
          fake.publishedThrough ?? (osloHour.format(now) >= '13' ? addDays(osloDate(now), 1) : osloDate(now))
        const fixture = `${params.year}/${params.file}`
        if (existsSync(new URL(fixture, fixturesUrl)))
          return fakeReply.bytes(fixtures.bytes(fixture), 'application/json; charset=utf-8')
        if (date > through || date < FIRST_DAY) return fakeReply.html(notFoundPage, { status: 404 })
        return fakeReply.bytes(Buffer.from(priceFile(date, match[3]!)), 'application/json; charset=utf-8')
      },
    },
    { prefix: '/api/v1/prices' },
  )) as FakeHvakosterstrommen
  fake.publishedThrough = undefined
  return fake
}
