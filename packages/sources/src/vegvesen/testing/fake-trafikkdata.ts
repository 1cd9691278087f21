import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/** Registration points of our own, in the shape `trafficRegistrationPoints` answers them. */
export const trafikkdataPoints = JSON.parse(
  readFileSync(new URL('./fixtures/registration-points.json', import.meta.url), 'utf8'),
) as {
  id: string
  trafficRegistrationType: string
}[]

/** The point whose counter drops out now and then: every tenth hour or day from the third has `volumeNumbers: null`. */
export const GAPPY_POINT_ID = '10234V1110002'

/** Options of {@link startFakeTrafikkdata}. */
export interface FakeTrafikkdataOptions {
  /** The registration points to answer instead of the fixture's (the demo adds some to them). */
  points?: typeof trafikkdataPoints
}

/** The trafikkdata fake, with every GraphQL question it was posted, parsed, oldest first. */
export interface FakeTrafikkdata extends FakeUpstream {
  questions: { query: string; variables: Record<string, unknown> }[]
}

/** How the API reports a question it cannot answer: HTTP 200, `errors`, `data` null. */
export function trafikkdataError(message: string, path?: string[]): FakeReply {
  return fakeReply.json({
    errors: [
      {
        message,
        locations: [{ line: 2, column: 3 }],
        ...(path ? { path } : {}),
        extensions: { classification: 'DataFetchingException' },
      },
    ],
    data: null,
  })
}

const zoned = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?(Z|[+-]\d\d:\d\d)$/
const osloOffset = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Oslo', timeZoneName: 'longOffset' })

function offsetMinutes(ms: number): number {
  const name = osloOffset.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value // GMT+01:00
  return (name[3] === '-' ? -1 : 1) * (Number(name.slice(4, 6)) * 60 + Number(name.slice(7, 9)))
}

/** Oslo local time with its offset, as the API writes `from` and `to`. */
function oslo(ms: number): string {
  const minutes = offsetMinutes(ms)
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 19)}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/** The next hour, or the next local midnight: a day across the clock change is 23 or 25 hours. */
function next(ms: number, byDay: boolean): number {
  if (!byDay) return ms + 3_600_000
  const plain = ms + 86_400_000
  return plain + (offsetMinutes(ms) - offsetMinutes(plain)) * 60_000
}

function volumes(id: string, byDay: boolean, from: number, to: number, first: number, after: string | null) {
  const rows: unknown[] = []
  for (let t = from, i = 0; t < to; t = next(t, byDay), i++) {
    const hour = new Date(t).getUTCHours()
    const gap = id === GAPPY_POINT_ID && i % 10 === 3
    const volume = byDay ? 12_000 + ((i * 733) % 4_000) : 100 + ((hour * 37 + i * 13) % 500)
    rows.push({
      node: {
        from: oslo(t),
        to: oslo(Math.min(next(t, byDay), to)),
        total: { volumeNumbers: gap ? null : { volume }, coverage: { percentage: gap ? 0 : 100 } },
      },
      cursor: Buffer.from(String(i)).toString('base64'),
    })
  }
  const start = after === null ? 0 : Number(Buffer.from(after, 'base64').toString()) + 1
  const edges = rows.slice(start, start + first)
  const last = edges[edges.length - 1] as { cursor: string } | undefined
  return { edges, pageInfo: { hasNextPage: start + first < rows.length, endCursor: last?.cursor ?? null } }
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * A local trafikkdata API: `POST /` answers `trafficRegistrationPoints` with the fixtures and
 * `trafficData(…) { volume { byHour|byDay(from, to, first, after) … } }` with volumes made up
 * per hour or day, paged by `first` (at most 100) and an opaque `after` cursor. Problems are
 * answered as the API does, HTTP 200 with `errors`: a time without its zone, `first` over 100,
 * an unknown point (the wording of these messages is assumed).
 *
 * @example
 * const trafikkdata = await startFakeTrafikkdata()
 * createGateway({ sources: [vegvesen()], upstreams: { vegvesen_trafikkdata: { baseUrl: trafikkdata.baseUrl } } })
 */
export async function startFakeTrafikkdata(options: FakeTrafikkdataOptions = {}): Promise<FakeTrafikkdata> {
  const points = options.points ?? trafikkdataPoints
  const questions: FakeTrafikkdata['questions'] = []
  const fake = await startFakeUpstream({
    '/': async (_url, req) => {
      if (req.method !== 'POST')
        return fakeReply.text(
          '<!DOCTYPE html><html><head><title>GraphiQL</title></head><body></body></html>',
          'text/html',
        )
      let question: { query?: unknown; variables?: Record<string, unknown> }
      try {
        question = JSON.parse(await bodyOf(req)) as typeof question
      } catch {
        return fakeReply.json({ errors: [{ message: 'Invalid JSON body' }] }, { status: 400 })
      }
      if (typeof question.query !== 'string')
        return fakeReply.json({ errors: [{ message: 'Missing query' }] }, { status: 400 })
      const variables = question.variables ?? {}
      questions.push({ query: question.query, variables })
      if (/trafficRegistrationPoints\(/.test(question.query))
        return fakeReply.json({ data: { trafficRegistrationPoints: points } })
      const asked = /(byHour|byDay)\(from: \$from, to: \$to, first: (\d+), after: \$after\)/.exec(question.query)
      if (!/trafficData\(trafficRegistrationPointId: \$id\)/.test(question.query) || !asked) {
        return trafikkdataError("Validation error of type FieldUndefined: Field 'unknown' in type 'Query' is undefined")
      }
      const { id, from, to, after } = variables as { id?: unknown; from?: unknown; to?: unknown; after?: unknown }
      for (const [name, value] of [
        ['from', from],
        ['to', to],
      ] as const) {
        if (typeof value !== 'string' || !zoned.test(value))
          return trafikkdataError(`Variable '${name}' has an invalid value: Invalid ZonedDateTime '${String(value)}'`)
      }
      const first = Number(asked[2])
      if (first > 100)
        return trafikkdataError('Argument first must be at most 100', ['trafficData', 'volume', asked[1]!])
      if (!points.some((p) => p.id === id)) {
        return trafikkdataError(`Traffic registration point ${String(id)} not found`, ['trafficData'])
      }
      const page = volumes(
        id as string,
        asked[1] === 'byDay',
        Date.parse(from as string),
        Date.parse(to as string),
        first,
        typeof after === 'string' ? after : null,
      )
      return fakeReply.json({ data: { trafficData: { volume: { [asked[1]!]: page } } } })
    },
  })
  return Object.assign(fake, { questions })
}
