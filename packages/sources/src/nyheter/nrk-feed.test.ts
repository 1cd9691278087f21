import { describe, expect, it } from 'vitest'
import { UpstreamError } from '@allmenning/core/source'
import { nrkFeeds } from './nyheter-upstreams.js'
import { NRK_REGIONS, parseNrkFeed, regionOfCounty } from './nrk-feed.js'

const feed = (items: string) =>
  `<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>t</title>${items}</channel></rss>`

describe('parseNrkFeed', () => {
  it('reads numeric entities, CDATA and escaped HTML into plain text, and times with an offset', () => {
    const { items, unreadable } = parseNrkFeed(
      nrkFeeds,
      feed(
        '<item><title>Bl&#229;b&#xE6;r &amp; tyttebær</title><link>https://www.nrk.no/mr/x-1.2</link>' +
          '<description><![CDATA[<p>Første <i>linje</i></p>]]></description><pubDate>Fri, 27 Nov 2026 10:00:00 +0100</pubDate>' +
          '<guid isPermaLink="false">1.2</guid><category>Natur</category></item>',
      ),
    )
    expect(unreadable).toBe(0)
    expect(items).toEqual([
      {
        id: '1.2',
        title: 'Blåbær & tyttebær',
        link: 'https://www.nrk.no/mr/x-1.2',
        summary: 'Første linje',
        publishedAt: Date.parse('2026-11-27T09:00:00Z'),
        category: 'Natur',
      },
    ])
  })

  it('leaves out items without a title or a readable date, and links that are not http', () => {
    const { items, unreadable } = parseNrkFeed(
      nrkFeeds,
      feed(
        '<item><title></title><pubDate>Fri, 27 Nov 2026 10:00:00 GMT</pubDate></item>' +
          '<item><title>Uten dato</title><pubDate>i går</pubDate></item>' +
          '<item><title>Lenke</title><link>javascript:alert(1)</link><pubDate>Fri, 27 Nov 2026 10:00:00 GMT</pubDate></item>',
      ),
    )
    expect(unreadable).toBe(2)
    expect(items).toHaveLength(1)
    expect(items[0]).toMatchObject({ title: 'Lenke', link: null })
  })

  it('is an upstream error for a page that is not RSS', () => {
    expect(() => parseNrkFeed(nrkFeeds, '<!doctype html><html></html>')).toThrow(UpstreamError)
  })
})

describe('NRK regions', () => {
  it('cover every county of 2024 once', () => {
    const counties = NRK_REGIONS.flatMap((r) => r.counties).sort()
    expect(counties).toEqual(['03', '11', '15', '18', '31', '32', '33', '34', '39', '40', '42', '46', '50', '55', '56'])
    expect(regionOfCounty('3')?.slug).toBe('stor-oslo')
    expect(regionOfCounty('99')).toBeUndefined()
  })
})
