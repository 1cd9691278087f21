import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { testUpstreamClient } from '@allmenning/core/testing'
import { domstolSite } from './case-law-upstream.js'
import { categoryOfSlug, createHoyesterettClient } from './hoyesterett-client.js'
import { parseHrNumber } from './hr-number.js'
import { startFakeDomstol, type FakeDomstol } from './testing/fake-domstol.js'

const clientFor = (baseUrl: string) => testUpstreamClient(domstolSite, baseUrl)

describe('parseHrNumber and categoryOfSlug', () => {
  it('reads case numbers as users write them', () => {
    expect(parseHrNumber('hr-2024-01234-a')).toBe('HR-2024-1234-A')
    expect(parseHrNumber(' HR-2025-844-A ')).toBe('HR-2025-844-A')
    expect(parseHrNumber('HR-2025-844')).toBeUndefined()
    expect(parseHrNumber('Rt-2005-1234')).toBeUndefined()
  })

  it('names categories from the slugs of every year', () => {
    expect(
      [
        'hoyesterett---sivil',
        'hoyesterett-sivil',
        'hoyesterett---straff',
        'hoyesteretts-ankeutvalg---straff',
        'hoyesteretts-ankeutvalg-sivil',
        'storkammer',
      ].map(categoryOfSlug),
    ).toEqual(['sivil', 'sivil', 'straff', 'ankeutvalg-straff', 'ankeutvalg-sivil', 'storkammer'])
  })
})

describe('createHoyesterettClient', () => {
  let fake: FakeDomstol
  beforeEach(async () => {
    fake = await startFakeDomstol()
  })
  afterEach(async () => {
    await fake.close()
  })

  it('lists a year from the sitemap and the decision pages, newest case first', async () => {
    const decisions = await createHoyesterettClient().year(clientFor(fake.baseUrl), 2025)
    expect(decisions.map((d) => [d.hrNumber, d.category, d.published])).toEqual([
      ['HR-2025-844-A', 'sivil', '2025-05-09'],
      ['HR-2025-813-A', 'straff', '2025-05-06'],
      ['HR-2025-812-U', 'ankeutvalg-straff', '2025-05-06'],
    ])
    expect(decisions[0]).toEqual({
      hrNumber: 'HR-2025-844-A',
      year: 2025,
      category: 'sivil',
      url: 'https://www.domstol.no/no/hoyesterett/avgjorelser/avgjorelser-2025/hoyesterett---sivil/HR-2025-844-A/',
      path: '/no/hoyesterett/avgjorelser/avgjorelser-2025/hoyesterett---sivil/HR-2025-844-A/',
      title: 'Ekspropriasjon av vegrett etter vegloven § 53',
      published: '2025-05-09',
      caseIntro:
        'Høyesteretts dom 9. mai 2025, HR-2025-844-A, (sak nr. 24-182418SIV-HRET), sivil sak, anke over Gulating lagmannsretts jordskifteavgjørelse 4. oktober 2024. ' +
        'A (advokat Kitty Moss Sørensen) mot B, C (advokat Christian Schadenberg Mathiassen)',
      summary:
        'Eierne av en bolig i Askøy kommune ønsket vegrett på naboens eiendom for å få bedre atkomst og parkering.\n\n' +
        'Høyesterett har kommet til at vilkårene for inngrep etter vegloven § 53 er oppfylt.\n\n' +
        'Les avgjørelsen fra Høyesterett (PDF)\n\n' +
        'Dommere: Bull, Høgetveit Berg, Steinsvik, Sæther, Lund\n\nRettsområde: Ekspropriasjon, vegloven\n\nNøkkelavsnitt: 40, 47, 57',
      pdfUrl: 'https://www.domstol.no/globalassets/upload/hret/avgjorelser/2025/mai/hr-2025-844-a.pdf',
    })
  })

  it('reads the older address shape', async () => {
    const decision = await createHoyesterettClient().decision(clientFor(fake.baseUrl), 'HR-2023-491-P')
    expect(decision).toMatchObject({
      year: 2023,
      category: 'sivil',
      published: '2023-03-16',
      url: 'https://www.domstol.no/no/hoyesterett/avgjorelser/2023/hoyesterett-sivil/hr-2023-491-p/',
    })
  })

  it('caches a year: asking again fetches nothing', async () => {
    const hoyesterett = createHoyesterettClient()
    await hoyesterett.year(clientFor(fake.baseUrl), 2025)
    const before = fake.requests.length
    await hoyesterett.year(clientFor(fake.baseUrl), 2025)
    await hoyesterett.decision(clientFor(fake.baseUrl), 'HR-2025-844-A')
    expect(fake.requests.length).toBe(before)
    expect(hoyesterett.loadedYears()).toEqual([2025])
  })

  it('gives undefined for a decision the sitemap does not list, and an empty year', async () => {
    const hoyesterett = createHoyesterettClient()
    expect(await hoyesterett.decision(clientFor(fake.baseUrl), 'HR-2025-9999-A')).toBeUndefined()
    expect(await hoyesterett.year(clientFor(fake.baseUrl), 2011)).toEqual([])
  })

  it('answers a 502 saying what changed when a decision page has a new shape, never a partial list', async () => {
    fake.redesignPage('HR-2025-813-A')
    const error = await createHoyesterettClient()
      .year(clientFor(fake.baseUrl), 2025)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      status: 502,
      code: 'upstream_invalid_response',
      message:
        "Upstream domstol.no (domstol) answered the decision page /no/hoyesterett/avgjorelser/avgjorelser-2025/hoyesterett---straff/HR-2025-813-A/ without the __INITIAL__DATA__ JSON it used to carry; the site's shape has changed",
    })
  })

  it('answers a 502 when the sitemap lists no decision any more', async () => {
    fake.dropDecisionsFromSitemap()
    await expect(createHoyesterettClient().year(clientFor(fake.baseUrl), 2025)).rejects.toThrow(
      "Upstream domstol.no (domstol) lists no Høyesterett decision page (/no/hoyesterett/avgjorelser/…/HR-…/) among 3 pages of its sitemap; the site's shape has changed",
    )
  })

  it('keeps the last good sitemap when a refresh lists far fewer decisions, and asks again after a minute', async () => {
    let now = 0
    const hoyesterett = createHoyesterettClient({ now: () => now, sitemapTtlMs: 1000 })
    const client = clientFor(fake.baseUrl)
    expect(await hoyesterett.decision(client, 'HR-2025-812-U')).toBeDefined()
    fake.cutSitemap(1)
    now += 2000
    // The stale sitemap answers while a refresh runs in the background; that refresh is refused.
    expect(await hoyesterett.decision(client, 'HR-2025-812-U')).toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const sitemapsAsked = fake.requests.filter((r) => r === '/sitemap.xml').length
    expect(await hoyesterett.decision(client, 'HR-2025-812-U')).toBeDefined()
    expect(fake.requests.filter((r) => r === '/sitemap.xml').length).toBe(sitemapsAsked)
    // A minute later the site is asked again, and a whole sitemap is taken.
    fake.cutSitemap(Number.MAX_SAFE_INTEGER)
    now += 61_000
    expect(await hoyesterett.decision(client, 'HR-2025-812-U')).toBeDefined()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(fake.requests.filter((r) => r === '/sitemap.xml').length).toBe(sitemapsAsked + 1)
  })

  it('answers a 502 when a page names another case than its address', async () => {
    const other = await startFakeDomstol({
      decisions: [
        {
          hrNumber: 'HR-2025-900-A',
          slug: 'hoyesterett---sivil',
          title: 'Feil side',
          intro: '<p>Høyesteretts dom 1. juni 2025, HR-2025-901-A, sivil sak.</p>',
          body: '<p>x</p>',
        },
      ],
    })
    try {
      await expect(createHoyesterettClient().year(clientFor(other.baseUrl), 2025)).rejects.toThrow(
        /with an intro that does not name HR-2025-900-A/,
      )
    } finally {
      await other.close()
    }
  })
})
