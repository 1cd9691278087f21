import { readFileSync } from 'node:fs'
import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'

/**
 * A recorded-shape `siste.rss` of NRK Stor-Oslo (our own articles, 25–27 November 2026). No
 * capture of the real feed was found: it is written to RSS 2.0 as NRK's feeds are described
 * by their clients (UTF-8, `pubDate` in RFC 822 with GMT, `guid` NRK's article id `1.nnnnnnnn`
 * not a permalink, `dc:creator`, `media:content`), with an escaped-HTML description, a CDATA
 * title and an `&amp;`. `<category>` is on one item only: whether NRK sends it is not seen.
 */
export const nrkFeedFixture = readFileSync(
  new URL('./fixtures/nrk-stor-oslo-siste-2026-11-27.rss', import.meta.url),
  'utf8',
)

/** What {@link startFakeNrk} plays. */
export interface FakeNrkOptions {
  /** Feeds by region slug; Stor-Oslo's recorded feed by default. Other regions answer 404, as an unknown path of nrk.no would. */
  feeds?: Record<string, string>
  /** Moves every `pubDate` so the newest was an hour ago, keeping their spacing, for the offline demo. */
  shiftToNow?: boolean
}

function shifted(xml: string): string {
  const dates = [...xml.matchAll(/<pubDate>([^<]+)<\/pubDate>/g)].map((m) => Date.parse(m[1]!))
  const shift = Date.now() - 3_600_000 - Math.max(...dates)
  return xml.replace(/<(pubDate|lastBuildDate)>([^<]+)<\/\1>/g, (_whole, tag: string, date: string) => {
    return `<${tag}>${new Date(Date.parse(date) + shift).toUTCString()}</${tag}>`
  })
}

/**
 * A local www.nrk.no answering `/{region}/siste.rss` as `application/rss+xml; charset=utf-8`
 * (the real content type is not seen).
 *
 * @example
 * const nrk = await startFakeNrk()
 * const gateway = createTestGateway({ sources: nyheter(), upstreams: { nrk_rss: nrk } })
 */
export async function startFakeNrk(options: FakeNrkOptions = {}): Promise<FakeUpstream> {
  const feeds = options.feeds ?? { 'stor-oslo': nrkFeedFixture }
  return startFakeUpstream({
    '/{region}/siste.rss': (_url, _req, params) => {
      const feed = feeds[params.region!]
      if (feed === undefined) return fakeReply.html('<!doctype html><title>Fant ikke siden</title>', { status: 404 })
      return fakeReply.text(options.shiftToNow ? shifted(feed) : feed, 'application/rss+xml')
    },
  })
}
