import { avinorApi } from './avinor-upstream.js'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { UpstreamError } from '@allmenning/core/source'
import { avinorContext, startFakeAvinor, type FakeAvinor } from './testing/fake-avinor.js'
import { createAvinorFeeds } from './feed-client.js'

const DAY = 86_400_000

describe('createAvinorFeeds', () => {
  let fake: FakeAvinor
  beforeEach(async () => {
    fake = await startFakeAvinor()
  })
  afterEach(async () => {
    await fake.close()
  })

  it('keeps the name lists for a day, then refreshes them in the background without blocking', async () => {
    const clock = { t: 0 }
    const feeds = createAvinorFeeds({ now: () => clock.t })
    const client = avinorContext(fake.baseUrl).upstream(avinorApi)
    const first = await feeds.airports(client)
    clock.t += DAY - 1
    expect(await feeds.airports(client)).toBe(first)
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(1)

    // Past the day, a broken list answer must neither block nor replace the old list.
    clock.t += 1
    fake.misbehave('/airportNames/v1.0', 'html')
    expect(await feeds.airports(client)).toBe(first)
    await vi.waitFor(() => expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(2))
    // Let the failed refresh settle; a local round trip takes a millisecond or two.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await feeds.airports(client)).toBe(first)
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(2)

    // A minute after the failed refresh it tries again, and the new list replaces the old.
    clock.t += 60_000
    fake.misbehave('/airportNames/v1.0', 'ok')
    await vi.waitFor(async () => {
      expect(await feeds.airports(client)).not.toBe(first)
    })
    expect((await feeds.airports(client)).get('TOS')).toBe('Tromsø')
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(3)
  })

  it('does not keep an empty first list: a 502 naming Avinor, asked again a minute later, not a day', async () => {
    const clock = { t: 0 }
    const feeds = createAvinorFeeds({ now: () => clock.t })
    const client = avinorContext(fake.baseUrl).upstream(avinorApi)
    for (const path of ['/airportNames/v1.0', '/airlineNames/v1.0', '/flightStatuses/v1.0'] as const)
      fake.misbehave(path, 'empty-list')
    const refusals = await Promise.all(
      [feeds.airports(client), feeds.airlines(client), feeds.statuses(client)].map((p) => p.catch((e: unknown) => e)),
    )
    for (const [refusal, what] of [
      [refusals[0], 'airport-name list'],
      [refusals[1], 'airline-name list'],
      [refusals[2], 'flight-status list'],
    ] as const) {
      expect(refusal).toBeInstanceOf(UpstreamError)
      expect((refusal as UpstreamError).message).toMatch(
        new RegExp(`^Upstream Avinor flight data \\(avinor\\) sent an implausible ${what} \\(0 items`),
      )
    }
    expect(feeds.knownAirports()).toBeUndefined()
    clock.t += 59_999
    await expect(feeds.airports(client)).rejects.toBe(refusals[0])
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(1)

    clock.t += 1
    for (const path of ['/airportNames/v1.0', '/airlineNames/v1.0', '/flightStatuses/v1.0'] as const)
      fake.misbehave(path, 'ok')
    expect((await feeds.airports(client)).get('OSL')).toBe('Oslo')
    expect((await feeds.airlines(client)).get('WF')).toBe('Widerøe')
    expect((await feeds.statuses(client)).get('C')).toEqual({ en: 'Cancelled', no: 'Innstilt' })
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(2)
  })

  it('keeps the last good list through an empty refresh, and replaces it with the next good one', async () => {
    const clock = { t: 0 }
    const feeds = createAvinorFeeds({ now: () => clock.t })
    const client = avinorContext(fake.baseUrl).upstream(avinorApi)
    const first = await feeds.airports(client)
    clock.t += DAY
    fake.misbehave('/airportNames/v1.0', 'empty-list')
    expect(await feeds.airports(client)).toBe(first)
    await vi.waitFor(() => expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(2))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await feeds.airports(client)).toBe(first)
    expect(feeds.knownAirports()).toBe(first)
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(2)

    clock.t += 60_000
    fake.misbehave('/airportNames/v1.0', 'ok')
    await vi.waitFor(async () => {
      expect(await feeds.airports(client)).not.toBe(first)
    })
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(3)
  })

  it('does not ask again at once after a failed first list load', async () => {
    const feeds = createAvinorFeeds()
    const client = avinorContext(fake.baseUrl).upstream(avinorApi)
    fake.misbehave('/flightStatuses/v1.0', 'empty')
    await expect(feeds.statuses(client)).rejects.toBeInstanceOf(UpstreamError)
    await expect(feeds.statuses(client)).rejects.toThrow('answered an empty body instead of the flightStatuses XML')
    expect(fake.requestsTo('/flightStatuses/v1.0')).toHaveLength(1)
  })

  it('exposes loaded names without loading', async () => {
    const feeds = createAvinorFeeds()
    expect(feeds.knownAirports()).toBeUndefined()
    expect(feeds.knownAirlines()).toBeUndefined()
    await feeds.airlines(avinorContext(fake.baseUrl).upstream(avinorApi))
    expect(feeds.knownAirlines()?.get('WF')).toBe('Widerøe')
    expect(fake.requests).toHaveLength(1)
  })
})

describe('startFakeAvinor', () => {
  let fake: FakeAvinor
  beforeEach(async () => {
    fake = await startFakeAvinor()
  })
  afterEach(async () => {
    await fake.close()
  })
  const get = async (path: string) => {
    const response = await fetch(fake.baseUrl + path)
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      bytes: Buffer.from(await response.arrayBuffer()),
    }
  }

  it('sends ISO-8859-1 bytes with an XML content type and declaration', async () => {
    const { status, type, bytes } = await get('/airportNames/v1.0?airport=TOS')
    expect(status).toBe(200)
    expect(type).toBe('text/xml; charset=ISO-8859-1')
    const text = bytes.toString('latin1')
    expect(text).toMatch(/^<\?xml version="1.0" encoding="ISO-8859-1"\?>/)
    expect(text).toContain('<airportNames xmlns="http://www.avinor.no/xmlfeed/airportnames/v1.0">')
    expect(text).toContain('<airportName code="TOS" name="Tromsø"/>')
    expect(text).not.toContain('code="OSL"')
    expect(bytes.includes(Buffer.from([0xf8]))).toBe(true)
  })

  it('applies direction, the hour-rounded window and codeshare=Y, case-sensitively', async () => {
    const ids = (text: string) => [...text.matchAll(/<flight_id>([^<]+)</g)].map((m) => m[1])
    const base = (await get('/XmlFeed/v1.0?airport=OSL')).bytes.toString('latin1')
    expect(ids(base)).toHaveLength(11)
    expect(base).not.toContain('codeshare')
    const arrivals = (await get('/XmlFeed/v1.0?airport=OSL&direction=A&codeshare=Y')).bytes.toString('latin1')
    expect(ids(arrivals)).toEqual(['DY1791', 'WF170', 'SK1301', 'BA763', 'SK4493'])
    expect(arrivals).toContain('<codeshareAirlineNames>Widerøe</codeshareAirlineNames>')
    const wide = (await get('/XmlFeed/v1.0?airport=OSL&TimeFrom=24&TimeTo=144')).bytes.toString('latin1')
    expect(ids(wide)).toHaveLength(14)
    // Wrong-case parameters are not evaluated; the defaults apply.
    const wrongCase = (await get('/XmlFeed/v1.0?airport=OSL&timefrom=24&Direction=A')).bytes.toString('latin1')
    expect(ids(wrongCase)).toEqual(ids(base))
    expect((await get('/xmlfeed/v1.0?airport=OSL')).status).toBe(404)
    expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(4)
  })

  it('answers an empty flight list for airports without a fixture', async () => {
    const text = (await get('/XmlFeed/v1.0?airport=ALC')).bytes.toString('latin1')
    expect(text).toContain('<airport name="ALC"')
    expect(text).toContain('<flights lastUpdate="2026-09-25T14:22:33.830916Z"/>')
  })
})
