import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeReply, type FakeUpstream } from '@allmenning/core/testing'

/**
 * One recorded-shape answer of Politiloggen's `/messages` (our own messages, 27 November 2026,
 * newest first), in the shape of the API at api.politiloggen.politiet.no as a 2026 client
 * documents it: `{messages[], totalCount}`, ids `{threadId}-{n}`, times with seven decimals and
 * `+00:00`, `imageUrl`, `previouslyIncludedImage`, `isEdited`. Two messages of one incident
 * (Storgata), Oslo and Bærum areas that are place names, an area that is none (E18
 * Mosseveien), a message without an area, Lillestrøm and Herøy (which Kartverket's fake
 * municipality register does not know, or knows twice) and Bergen, far from Oslo.
 */
export const policeMessagesFixture = readFileSync(
  new URL('./fixtures/politiloggen-messages-2026-11-27.json', import.meta.url),
  'utf8',
)

type Message = Record<string, unknown> & { createdOn: string; updatedOn: string | null }

/** The recorded messages, as the fake serves them. */
export const recordedPoliceMessages: Message[] = (JSON.parse(policeMessagesFixture) as { messages: Message[] }).messages

/** What {@link startFakePolitiloggen} plays. */
export interface FakePolitiloggenOptions {
  /** The messages it holds; the recorded ones by default. */
  messages?: Message[]
  /**
   * Moves every message so the newest was written ten minutes ago, keeping their spacing, as
   * the offline demo needs for "the last 24 hours"; tests leave the recorded times alone.
   */
  shiftToNow?: boolean
  /**
   * `messages` (default): `{messages[], totalCount}` of api.politiloggen.politiet.no; `v1`:
   * `{data[], metadata}` of the older api.politiet.no/politiloggen/v1, as clients model it.
   */
  shape?: 'messages' | 'v1'
}

const TAKE_MAX = 50

// ASP.NET's validation answer; the real body for a Take above 50 is not seen.
const invalid = (field: string, message: string): FakeReply =>
  fakeReply.json(
    {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { [field]: [message] },
    },
    { contentType: 'application/problem+json; charset=utf-8', status: 400 },
  )

// The API writes seven decimals and an explicit +00:00.
const apiTime = (ms: number) => new Date(ms).toISOString().replace('Z', '0000+00:00')

const lowerSet = (values: string[]) => new Set(values.map((v) => v.toLowerCase()))

/**
 * A local Politiloggen. `/messages` filters by `DateFrom` (a day, compared with the UTC day of
 * `createdOn`; the real rule is not seen), `Districts`, `Municipalities` and `Categories`
 * (repeatable, any case), `IsActive`; sorts by `createdOn` (`SortBy=Date`, `SortOrder`); pages
 * with `Skip` and `Take` (10 by default, at most 50, as documented). A caller without a
 * User-Agent, or with a browser's, gets 429, as a public gateway's client reported.
 *
 * @example
 * const politi = await startFakePolitiloggen()
 * const gateway = createTestGateway({ sources: nyheter(), upstreams: { politiloggen: politi } })
 */
export async function startFakePolitiloggen(options: FakePolitiloggenOptions = {}): Promise<FakeUpstream> {
  const recorded = options.messages ?? recordedPoliceMessages
  return startFakeUpstream({
    '/messages': (url, req) => {
      const agent = req.headers['user-agent'] ?? ''
      if (agent === '' || /^Mozilla\//.test(agent)) return fakeReply.status(429, 'Too Many Requests')
      const take = Number(url.searchParams.get('Take') ?? 10)
      const skip = Number(url.searchParams.get('Skip') ?? 0)
      if (!Number.isInteger(take) || take < 1 || take > TAKE_MAX)
        return invalid('Take', `The field Take must be between 1 and ${TAKE_MAX}.`)
      if (!Number.isInteger(skip) || skip < 0) return invalid('Skip', 'The field Skip must be 0 or more.')
      const dateFrom = url.searchParams.get('DateFrom')
      if (dateFrom !== null && !/^\d{4}-\d{2}-\d{2}/.test(dateFrom))
        return invalid('DateFrom', `The value '${dateFrom}' is not valid.`)
      const newest = Math.max(...recorded.map((m) => Date.parse(m.createdOn)))
      const shift = options.shiftToNow ? Date.now() - 10 * 60_000 - newest : 0
      const moved: Message[] = recorded.map((m) => ({
        ...m,
        createdOn: apiTime(Date.parse(m.createdOn) + shift),
        updatedOn: m.updatedOn === null ? null : apiTime(Date.parse(m.updatedOn) + shift),
      }))
      const districts = lowerSet(url.searchParams.getAll('Districts'))
      const municipalities = lowerSet(url.searchParams.getAll('Municipalities'))
      const categories = lowerSet(url.searchParams.getAll('Categories'))
      const active = url.searchParams.get('IsActive')
      const matching = moved
        .filter((m) => dateFrom === null || m.createdOn.slice(0, 10) >= dateFrom.slice(0, 10))
        .filter((m) => districts.size === 0 || districts.has(String(m['district']).toLowerCase()))
        .filter((m) => municipalities.size === 0 || municipalities.has(String(m['municipality']).toLowerCase()))
        .filter((m) => categories.size === 0 || categories.has(String(m['category']).toLowerCase()))
        .filter((m) => active === null || String(m['isActive']) === active.toLowerCase())
        .sort((a, b) => Date.parse(b.createdOn) - Date.parse(a.createdOn))
      if (url.searchParams.get('SortOrder') === 'Ascending') matching.reverse()
      const page = matching.slice(skip, skip + take)
      if (options.shape === 'v1') {
        const queryParameters = [...new Set(url.searchParams.keys())].map((key) => ({
          key,
          value: url.searchParams.getAll(key),
        }))
        return fakeReply.json({
          data: page,
          metadata: {
            requestTime: new Date().toISOString(),
            apiVersion: '1.0',
            requestLimitPerHour: 1000,
            totalItems: matching.length,
            pageSize: take,
            queryParameters,
          },
        })
      }
      return fakeReply.json({ messages: page, totalCount: matching.length })
    },
  })
}
