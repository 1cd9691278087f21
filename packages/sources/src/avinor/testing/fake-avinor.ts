import {
  fakeReply,
  fixtureFiles,
  startFakeUpstream,
  testOperationContext,
  type FakeReply,
  type FakeUpstream,
} from '@allmenning/core/testing'
import { avinorApi } from '../avinor-upstream.js'

/** The four asrv.avinor.no feeds the fake serves; paths are case-sensitive, as on the real host. */
export type FakeAvinorPath = '/XmlFeed/v1.0' | '/airportNames/v1.0' | '/airlineNames/v1.0' | '/flightStatuses/v1.0'

/**
 * How a feed answers: `ok` (real-shaped XML), `html` (an HTML error page with status 200, as a
 * proxy or maintenance page sends), `empty` (200 with no body), `empty-list` (the feed's own
 * document with nothing in it, such as `<airportNames xmlns="…"/>` or an XmlFeed without
 * flights), `malformed` (truncated XML), `wrong-root` (well-formed XML that is not the feed),
 * `server-error` (HTTP 500).
 */
export type FakeAvinorBehaviour = 'ok' | 'html' | 'empty' | 'empty-list' | 'malformed' | 'wrong-root' | 'server-error'

export interface FakeAvinorOptions {
  /**
   * The moment the TimeFrom/TimeTo window is counted from. Defaults to the capture time of
   * the fixtures (2026-09-25T14:22:33Z), so windows are deterministic.
   */
  now?: () => Date
  /** Content-Type of XML answers; the bodies are always ISO-8859-1 bytes. */
  contentType?: string
  /** Delay every answer, so that concurrent calls overlap. */
  delayMs?: number
  /** Initial misbehaviour per feed; `ok` for every feed not named. */
  behaviour?: Partial<Record<FakeAvinorPath, FakeAvinorBehaviour>>
  /** XmlFeed documents by airport code, added to or replacing the fixtures (OSL, TOS, BOO). */
  feeds?: Record<string, string>
  /** The XmlFeed document of an airport with none in `feeds`; an empty flight list when it gives none. */
  fallbackFeed?: (airport: string) => string | undefined
  /**
   * Moves every time in the XmlFeed documents by the whole hours `now()` is past the capture
   * time of the fixtures, so a fake on the real clock answers flights around the current hour,
   * as they stood against the capture time (the offline demo).
   */
  moveToNow?: boolean
}

export interface FakeAvinor extends FakeUpstream {
  /** Requests received on one feed path, parsed, in arrival order. */
  requestsTo(path: FakeAvinorPath): URL[]
  /** Changes how one feed answers from now on. */
  misbehave(path: FakeAvinorPath, behaviour: FakeAvinorBehaviour): void
  /** The time the window is counted from when `now` is not given. */
  readonly referenceTime: Date
}

/**
 * When the fixtures were captured (their `lastUpdate`): the default "now" of the fake's windows.
 *
 * @example
 * const clock = { t: AVINOR_FIXTURE_TIME.getTime() }
 */
export const AVINOR_FIXTURE_TIME = new Date('2026-09-25T14:22:33Z')

const HOUR = 3_600_000

const fixtures = fixtureFiles(new URL('./fixtures/', import.meta.url))

/**
 * Reads one fixture from `fixtures` as text, decoding the ISO-8859-1 bytes it is stored in.
 *
 * @example
 * const xml = readAvinorFixture('xmlfeed-osl.xml') // 'Tromsø', not 'TromsÃ¸'
 */
export function readAvinorFixture(name: string): string {
  return fixtures.text(name, 'iso-8859-1')
}

/** An integer parameter the way Avinor reads one: invalid or out of range means the default. */
function hoursParameter(raw: string | null, fallback: number, max: number): number {
  if (raw === null || !/^\d+$/.test(raw)) return fallback
  const value = Number(raw)
  return value <= max ? value : fallback
}

function tagText(block: string, tag: string): string | undefined {
  return new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(block)?.[1]
}

/** Filters a fixture document the way the real XmlFeed applies its parameters, keeping the bytes' shape. */
function answerFeed(document: string, url: URL, now: Date): string {
  const timeFrom = hoursParameter(url.searchParams.get('TimeFrom'), 1, 96)
  const timeTo = hoursParameter(url.searchParams.get('TimeTo'), 7, 144)
  const directionParam = url.searchParams.get('direction')
  const direction = directionParam === 'A' || directionParam === 'D' ? directionParam : undefined
  const codeshare = url.searchParams.get('codeshare') === 'Y'
  // Avinor rounds the window to whole hours: at 08:01 or 08:59 with 1/7 you get 07:00-15:00.
  const hour = Math.floor(now.getTime() / HOUR) * HOUR
  const from = hour - timeFrom * HOUR
  const to = hour + timeTo * HOUR

  const blocks = document.match(/[ \t]*<flight uniqueID="[^"]*">[\s\S]*?<\/flight>\r?\n?/g) ?? []
  const start = blocks[0] !== undefined ? document.indexOf(blocks[0]) : document.indexOf('</flights>')
  const end = document.indexOf('</flights>')
  const kept = blocks
    .filter((block) => {
      const time = Date.parse(tagText(block, 'schedule_time') ?? '')
      if (!(time >= from && time <= to)) return false
      return direction === undefined || tagText(block, 'arr_dep') === direction
    })
    .map((block) => (codeshare ? block : block.replace(/[ \t]*<codeshare\w+>[^<]*<\/codeshare\w+>\r?\n?/g, '')))
  return document.slice(0, start) + kept.join('') + document.slice(end)
}

const FEED_TIME = /(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?Z/g

/** The document with every UTC time in it moved by whole hours, from the capture hour to the hour of `now`. */
function movedToHourOf(document: string, now: Date): string {
  const shift = Math.floor(now.getTime() / HOUR) * HOUR - Math.floor(AVINOR_FIXTURE_TIME.getTime() / HOUR) * HOUR
  return document.replace(
    FEED_TIME,
    (_time, seconds: string, fraction: string | undefined) =>
      `${new Date(Date.parse(`${seconds}Z`) + shift).toISOString().slice(0, 19)}${fraction ?? ''}Z`,
  )
}

function emptyFeed(airport: string): string {
  return (
    '<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>\n' +
    `<airport name="${airport}" xsi:noNamespaceSchemaLocation="/XmlFeed.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n` +
    '  <flights lastUpdate="2026-09-25T14:22:33.830916Z"/>\n</airport>\n'
  )
}

/** The document with no items: its root element closed at once, as the real feeds send it. */
function withoutItems(document: string): string {
  const feed = /<flights\b([^>]*?)\s*>[\s\S]*<\/flights>/.exec(document)
  if (feed) return document.replace(feed[0], `<flights${feed[1]}/>`)
  const root = /<(airportNames|airlineNames|flightStatuses)\b[^>]*?\s*>/.exec(document)
  if (!root) return document
  return `${document.slice(0, root.index)}${root[0].replace(/\s*>$/, '/>')}${document.includes('\r\n') ? '\r\n' : '\n'}`
}

/** Keeps only the list items whose `code` is `only` (airportNames?airport=OSL), like the real lists. */
function filterList(document: string, item: string, only: string | null): string {
  if (only === null) return document
  return document.replace(new RegExp(`[ \\t]*<${item} code="([^"]*)"[^>]*/>\\r?\\n?`, 'g'), (line, code: string) =>
    code === only ? line : '',
  )
}

/**
 * Starts a fake asrv.avinor.no on 127.0.0.1 serving XmlFeed, airportNames, airlineNames and
 * flightStatuses from the fixtures in `fixtures`, as ISO-8859-1 bytes. XmlFeed
 * honours `airport`, `direction` (A/D), `TimeFrom`, `TimeTo` and `codeshare=Y`, case-sensitively;
 * airports without a fixture answer an empty flight list. Every request is recorded.
 *
 * @example
 * const fake = await startFakeAvinor({ delayMs: 20 })
 * createGateway({ sources: [avinor()], upstreams: { avinor: { baseUrl: fake.baseUrl } } })
 * fake.misbehave('/XmlFeed/v1.0', 'html')
 * expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(1)
 * await fake.close()
 */
export async function startFakeAvinor(options: FakeAvinorOptions = {}): Promise<FakeAvinor> {
  const contentType = options.contentType ?? 'text/xml; charset=ISO-8859-1'
  const now = options.now ?? (() => AVINOR_FIXTURE_TIME)
  const behaviour: Partial<Record<FakeAvinorPath, FakeAvinorBehaviour>> = { ...options.behaviour }
  const feeds: Record<string, string> = {
    OSL: readAvinorFixture('xmlfeed-osl.xml'),
    TOS: readAvinorFixture('xmlfeed-tos.xml'),
    BOO: readAvinorFixture('xmlfeed-boo.xml'),
    ...options.feeds,
  }
  const lists = {
    airportNames: readAvinorFixture('airport-names.xml'),
    airlineNames: readAvinorFixture('airline-names.xml'),
    flightStatuses: readAvinorFixture('flight-statuses.xml'),
  }

  const xml = (text: string): FakeReply => {
    const reply = fakeReply.xml(text, { charset: 'iso-8859-1', contentType })
    return options.delayMs ? fakeReply.slow(reply, options.delayMs) : reply
  }

  function misbehaving(path: FakeAvinorPath, okBody: () => string): FakeReply {
    const delayed = (reply: FakeReply) => (options.delayMs ? fakeReply.slow(reply, options.delayMs) : reply)
    switch (behaviour[path] ?? 'ok') {
      case 'html':
        return delayed(
          fakeReply.html(
            '<!DOCTYPE html>\n<html><head><title>Service Unavailable</title></head><body><h1>Service Unavailable</h1><p>Please try again later.<br></body></html>\n',
          ),
        )
      case 'empty':
        return delayed(fakeReply.bytes(Buffer.alloc(0), contentType))
      case 'malformed': {
        const body = okBody()
        return xml(body.slice(0, Math.floor(body.length / 2)))
      }
      case 'empty-list':
        return xml(withoutItems(okBody()))
      case 'wrong-root':
        return xml(
          '<?xml version="1.0" encoding="ISO-8859-1"?>\n<error><message>Ugyldig forespørsel</message></error>\n',
        )
      case 'server-error':
        return delayed(
          fakeReply.html('<html><body>Internal Server Error</body></html>', { status: 500, contentType: 'text/html' }),
        )
      case 'ok':
        return xml(okBody())
    }
  }

  const fake = await startFakeUpstream({
    '/XmlFeed/v1.0': (url) => {
      const airport = url.searchParams.get('airport')
      if (airport === null || !/^[A-Z]{3,4}$/.test(airport)) {
        return fakeReply.status(400, 'Missing or invalid airport parameter', { contentType: 'text/plain' })
      }
      const document = feeds[airport] ?? options.fallbackFeed?.(airport)
      const at = now()
      return misbehaving('/XmlFeed/v1.0', () =>
        document ? answerFeed(options.moveToNow ? movedToHourOf(document, at) : document, url, at) : emptyFeed(airport),
      )
    },
    '/airportNames/v1.0': (url) =>
      misbehaving('/airportNames/v1.0', () =>
        filterList(lists.airportNames, 'airportName', url.searchParams.get('airport')),
      ),
    '/airlineNames/v1.0': (url) =>
      misbehaving('/airlineNames/v1.0', () =>
        filterList(lists.airlineNames, 'airlineName', url.searchParams.get('airline')),
      ),
    '/flightStatuses/v1.0': (url) =>
      misbehaving('/flightStatuses/v1.0', () =>
        filterList(lists.flightStatuses, 'flightStatus', url.searchParams.get('code')),
      ),
  })

  return {
    ...fake,
    // `requests` is the fake's own live array, so the spread above keeps recording into it.
    requestsTo: (path) =>
      fake.requests.map((request) => new URL(request, 'http://127.0.0.1')).filter((url) => url.pathname === path),
    misbehave: (path, next) => void (behaviour[path] = next),
    referenceTime: AVINOR_FIXTURE_TIME,
  }
}

/** An operation context whose upstream is a fake Avinor at `baseUrl`. */
export function avinorContext(baseUrl: string, operation = 'get_flights') {
  return testOperationContext({ source: 'avinor', operation, upstream: { ...avinorApi, baseUrl } })
}
