import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestGateway, fakeReply, type FakeUpstream, type TestGateway } from '@allmenning/core/testing'
import { kommuneinfoFixtures } from '../shared/testing/fake-kommuneinfo.js'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { osloDate, osloMidnight } from '../shared/oslo-time.js'
import { nyheter } from './index.js'
import { LOOKUPS_PER_REQUEST } from './placement.js'
import { MAX_PAGES, PAGE_SIZE } from './police-log.js'
import { startFakeNrk } from './testing/fake-nrk.js'
import {
  recordedPoliceMessages,
  startFakePolitiloggen,
  type FakePolitiloggenOptions,
} from './testing/fake-politiloggen.js'
import { startFakeStedsnavn } from './testing/fake-stedsnavn.js'

interface Row {
  id: string
  name: string
  lat: number
  lon: number
  source: string
  pub_date: string
  category: string | null
  municipality: string | null
  area: string | null
  placed_by: string
  precision_km: number | null
  distance_km: number
  url: string | null
  summary: string | null
}

let fakes: {
  politiloggen: FakeUpstream
  nrk_rss: FakeUpstream
  kartverket_stedsnavn: FakeUpstream
  kartverket_kommuneinfo: FakeUpstream
}
let gateway: TestGateway

async function start(police: FakePolitiloggenOptions = {}) {
  const [politiloggen, nrk, stedsnavn, kommuneinfo] = await Promise.all([
    startFakePolitiloggen({ shiftToNow: true, ...police }),
    startFakeNrk({ shiftToNow: true }),
    startFakeStedsnavn(),
    startFakeKommuneinfo(),
  ])
  fakes = { politiloggen, nrk_rss: nrk, kartverket_stedsnavn: stedsnavn, kartverket_kommuneinfo: kommuneinfo }
  gateway = createTestGateway({ sources: nyheter(), upstreams: fakes })
}

beforeEach(() => start())
afterEach(() => Promise.all(Object.values(fakes).map((f) => f.close())))

const search = async (params: Record<string, unknown>) => {
  const answer = await gateway.call('nyheter', 'search_news', { lat: 59.91, lon: 10.75, ...params })
  return { ...answer, items: (answer.json.data?.items ?? []) as Row[] }
}
const oslo = JSON.parse(kommuneinfoFixtures['0301']!).punktIOmrade.coordinates as [number, number]

describe('search_news places the police log', () => {
  it('by the area when it is a place name of the municipality, else at the municipality’s point', async () => {
    const { status, items } = await search({ source: 'politiloggen' })
    expect(status).toBe(200)
    const storgata = items.find((r) => r.area === 'Storgata')!
    // Oslo's Storgata, not Ålesund's, which has the same name.
    expect(storgata).toMatchObject({ lat: 59.91586, lon: 10.75431, placed_by: 'area', precision_km: 1 })
    const mosseveien = items.find((r) => r.area === 'E18 Mosseveien')!
    expect(mosseveien).toMatchObject({ lat: oslo[1], lon: oslo[0], placed_by: 'municipality' })
    expect(mosseveien.precision_km).toBeGreaterThan(10)
    const noArea = items.find((r) => r.id === '26x16c-0')!
    expect(noArea).toMatchObject({ area: null, placed_by: 'municipality' })
    expect(items.find((r) => r.area === 'Sandvika')).toMatchObject({ lat: 59.89067, lon: 10.52505, placed_by: 'area' })
    expect(storgata.name).toBe('Trafikk: Storgata, Oslo')
    expect(storgata.url).toBe('https://www.politiet.no/politiloggen/hendelse/#/26x1ab')
  })

  it('counts what it could not place and leaves far places out', async () => {
    const { json, items } = await search({ source: 'politiloggen' })
    expect(json.data.unplaced).toEqual({
      count: 2,
      lookup_cap: 0,
      unknown_municipality: 2,
      no_municipality: 0,
      municipalities: ['Herøy', 'Lillestrøm'],
    })
    // Bergen is placed, 300 km away: not listed around Oslo, but around Bergen.
    expect(items.some((r) => r.municipality === 'Bergen')).toBe(false)
    const bergen = await search({ lat: 60.39, lon: 5.33, source: 'politiloggen' })
    expect(bergen.items.map((r) => r.area)).toEqual(['Danmarksplass'])
  })

  it('sorts by pub_date, newest first, and keeps only what was published since', async () => {
    const all = await search({})
    const dates = all.items.map((r) => r.pub_date)
    expect(dates).toEqual([...dates].sort().reverse())
    expect(new Set(all.items.map((r) => r.source))).toEqual(new Set(['Politiloggen', 'NRK']))
    // Between the fourth and the fifth (the demo fake moves its times with the clock, by milliseconds).
    const cut = new Date((Date.parse(dates[3]!) + Date.parse(dates[4]!)) / 2).toISOString()
    const since = await search({ since: cut })
    expect(since.items.map((r) => r.id)).toEqual(all.items.slice(0, 4).map((r) => r.id))
    expect(since.json.data.since).toBe(cut)
  })

  it('reads the log once a minute and each name once, whatever the point', async () => {
    const first = await search({})
    expect(first.json.data.geocoding_lookups).toBeGreaterThan(0)
    const stedsnavnCalls = fakes.kartverket_stedsnavn.hits()
    const second = await search({ lat: 59.9, lon: 10.7 })
    expect(second.status).toBe(200)
    expect(second.json.data.geocoding_lookups).toBe(0)
    expect(fakes.politiloggen.hits('/messages')).toBe(1)
    expect(fakes.kartverket_stedsnavn.hits()).toBe(stedsnavnCalls)
  })

  it(`makes at most ${LOOKUPS_PER_REQUEST} lookups a request and says what stayed unplaced`, async () => {
    const base = recordedPoliceMessages[0]!
    const many = Array.from({ length: LOOKUPS_PER_REQUEST + 10 }, (_, i) => ({
      ...base,
      id: `27a${i}-0`,
      threadId: `27a${i}`,
      municipality: `Ukjentby ${i}`,
      createdOn: new Date(Date.parse(base.createdOn) - i * 60_000).toISOString(),
    }))
    await Promise.all(Object.values(fakes).map((f) => f.close()))
    await start({ messages: many })
    const { json } = await search({ source: 'politiloggen' })
    expect(json.data.geocoding_lookups).toBe(LOOKUPS_PER_REQUEST)
    expect(json.data.unplaced).toMatchObject({
      count: many.length,
      lookup_cap: 10,
      unknown_municipality: LOOKUPS_PER_REQUEST,
    })
    expect(fakes.kartverket_kommuneinfo.hits('/sok')).toBe(LOOKUPS_PER_REQUEST)
  })

  it(`reads at most ${MAX_PAGES} pages of ${PAGE_SIZE} and says so in _meta.capped`, async () => {
    const base = recordedPoliceMessages[0]!
    const many = Array.from({ length: MAX_PAGES * PAGE_SIZE + 20 }, (_, i) => ({
      ...base,
      id: `28b${i}-0`,
      createdOn: new Date(Date.parse(base.createdOn) - i * 30_000).toISOString(),
    }))
    await Promise.all(Object.values(fakes).map((f) => f.close()))
    await start({ messages: many })
    const { status, json } = await search({ source: 'politiloggen', limit: 500 })
    expect(status).toBe(200)
    expect(fakes.politiloggen.hits('/messages')).toBe(MAX_PAGES)
    expect(json._meta.capped).toMatchObject({ cap: MAX_PAGES * PAGE_SIZE, requested_limit: 500 })
    expect(json.data.count).toBe(MAX_PAGES * PAGE_SIZE)
    const asked = fakes.politiloggen.received.map((r) => [
      r.query.get('Skip'),
      r.query.get('Take'),
      r.query.get('SortBy'),
      r.query.get('SortOrder'),
    ])
    expect(asked[1]).toEqual(['50', '50', 'Date', 'Descending'])
  })

  it('reads the older API’s shape, {data, metadata}, too', async () => {
    await Promise.all(Object.values(fakes).map((f) => f.close()))
    await start({ shape: 'v1' })
    const { status, items } = await search({ source: 'politiloggen' })
    expect(status).toBe(200)
    expect(items.length).toBeGreaterThan(5)
  })

  it('filters by municipality (by number or name), district and category, asking Politiloggen to', async () => {
    const baerum = await search({ municipality: '3201' })
    expect(baerum.items.map((r) => r.area).sort()).toEqual(['Fornebu', 'Sandvika'])
    expect(baerum.items.every((r) => r.source === 'Politiloggen')).toBe(true)
    expect(fakes.politiloggen.received.at(-1)!.query.get('Municipalities')).toBe('Bærum')
    const traffic = await search({ category: 'trafikk' })
    expect(traffic.items.length).toBeGreaterThan(0)
    expect(traffic.items.every((r) => r.category === 'Trafikk')).toBe(true)
    // NRK's one item with the category Trafikk comes with it.
    expect(traffic.items.some((r) => r.source === 'NRK')).toBe(true)
    const district = await search({ district: 'Øst politidistrikt', radius_km: 100 })
    expect(district.json.data.unplaced.municipalities).toEqual(['Lillestrøm'])
    expect(fakes.politiloggen.received.at(-1)!.query.get('Districts')).toBe('Øst politidistrikt')
  })
})

describe('search_news and NRK', () => {
  it('gives the regional feed of the point’s county, placed at the region’s town, read as text', async () => {
    const { items, json } = await search({ source: 'nrk' })
    expect(json.data.nrk_region).toBe('NRK Stor-Oslo')
    expect(items.length).toBe(4)
    expect(items.every((r) => r.placed_by === 'region' && r.lat === 59.9133 && r.lon === 10.7389)).toBe(true)
    const ruter = items.find((r) => r.id === 'nrk-1.17640877')!
    expect(ruter.name).toBe('Ruter & Sporveien: færre trikker i helgen')
    expect(ruter.summary).toBe('Vedlikehold av skinnene gjør at linje 17 og 18 kjører sjeldnere lørdag og søndag .')
    expect(items.find((r) => r.id === 'nrk-1.17640312')!.name).toBe('Bærum vil ha flere barnehageplasser på Fornebu')
    expect(fakes.nrk_rss.requests).toEqual(['/stor-oslo/siste.rss'])
  })

  it('gives no NRK news outside Norway’s counties, and none with a police filter', async () => {
    const sea = await search({ lat: 58.0, lon: 3.0 })
    expect(sea.json.data.nrk_region).toBeNull()
    expect(sea.items).toEqual([])
    await search({ municipality: 'Oslo' })
    expect(fakes.nrk_rss.hits()).toBe(0)
  })

  it('keeps the police log when NRK fails, and says why; is a 502 naming NRK when only NRK was asked', async () => {
    fakes.nrk_rss.failWith(fakeReply.status(503, 'Service Unavailable'))
    const both = await search({})
    expect(both.status).toBe(200)
    expect(both.items.length).toBeGreaterThan(0)
    expect(both.items.every((r) => r.source === 'Politiloggen')).toBe(true)
    expect(both.json.data.nrk_error).toMatch(/503/)
    const only = await search({ source: 'nrk', radius_km: 5 })
    expect(only.status).toBe(502)
    expect(only.json.error.message).toMatch(/NRK regional news feeds/)
  })

  it('is a 502 naming NRK for a body that is no RSS feed', async () => {
    fakes.nrk_rss.route('/{region}/siste.rss', () => fakeReply.html('<!doctype html><p>Vedlikehold</p>'))
    const { status, json } = await search({ source: 'nrk' })
    expect(status).toBe(502)
    expect(json.error.message).toMatch(/NRK regional news feeds.*RSS/)
  })
})

describe('search_news reads since', () => {
  it('as UTC without an offset, with an offset as given, and a day alone as its midnight in Oslo', async () => {
    // One clock reading for both: read twice, a second may pass between them.
    const now = Date.now()
    const hourAgo = new Date(now - 3_600_000).toISOString().slice(0, 19)
    expect((await search({ since: hourAgo })).json.data.since).toBe(`${hourAgo}.000Z`)
    // The same instant written in UTC+1: an hour ahead on the clock.
    const withOffset = `${new Date(now).toISOString().slice(0, 19)}+01:00`
    expect((await search({ since: withOffset })).json.data.since).toBe(`${hourAgo}.000Z`)
    const today = osloDate()
    expect((await search({ since: today })).json.data.since).toBe(new Date(osloMidnight(today)).toISOString())
  })

  it('defaults to the last 24 hours', async () => {
    const { json } = await search({})
    expect(Math.abs(Date.parse(json.data.since) - (Date.now() - 24 * 3_600_000))).toBeLessThan(60_000)
  })
})

describe('search_news refuses and fails plainly', () => {
  it.each([
    [{ since: 'yesterday' }, 'since'],
    [{ since: new Date(Date.now() - 8 * 86_400_000).toISOString() }, 'since'],
    [{ source: 'twitter' }, 'source'],
    [{ municipality: '12' }, 'municipality'],
    [{ radius_km: 0 }, 'radius_km'],
    [{ lat: 91 }, 'lat'],
  ])('400 for %j, naming %s', async (params, parameter) => {
    const { status, json } = await search(params)
    expect(status).toBe(400)
    expect(JSON.stringify(json.error)).toContain(parameter)
  })

  it('404 for a municipality Kartverket does not know', async () => {
    const { status } = await search({ municipality: '9999' })
    expect(status).toBe(404)
  })

  it('502 naming Politiloggen when it fails or sends another shape', async () => {
    fakes.politiloggen.failWith(fakeReply.status(500, 'Internal Server Error'))
    const failed = await search({ source: 'politiloggen' })
    expect(failed.status).toBe(502)
    expect(failed.json.error.message).toMatch(/Politiloggen/)
    fakes.politiloggen.failWith(undefined)
    fakes.politiloggen.route('/messages', () => fakeReply.json({ items: [] }))
    const odd = await search({ source: 'politiloggen', since: new Date(Date.now() - 3_600_000).toISOString() })
    expect(odd.status).toBe(502)
    expect(odd.json.error.message).toMatch(/Politiloggen/)
  })
})
