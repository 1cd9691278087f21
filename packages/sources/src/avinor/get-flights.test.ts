import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { GatewayError } from '@allmenning/core'
import { UpstreamError } from '@allmenning/core/source'
import { avinorContext, startFakeAvinor, type FakeAvinor } from './testing/fake-avinor.js'
import { createAvinorFeeds } from './feed-client.js'
import { createGetFlights, type Flight } from './get-flights.js'

type GetFlights = ReturnType<typeof createGetFlights>

/** Validates and defaults raw parameters the way the core does, then adds the page window. */
function paramsFor(operation: GetFlights, input: Record<string, unknown>, page = { limit: 25, offset: 0 }) {
  // OperationParameters names every key, while v.object leaves an absent optional key out.
  return { direction: undefined, ...v.parse(v.object(operation.parameters), { airport_id: 'OSL', ...input }), ...page }
}

const DEFAULT_WINDOW_IDS = [
  'DY1791',
  'WF170',
  'SK4416',
  'DY390',
  'SK1470',
  'SK1301',
  'DY602',
  'BA763',
  'DY1302',
  'KL1144',
  'SK4493',
]

describe('get_flights', () => {
  let fake: FakeAvinor
  let clock: { t: number }
  let getFlights: GetFlights
  const run = (input: Record<string, unknown> = {}, page?: { limit: number; offset: number }) =>
    getFlights.run(paramsFor(getFlights, input, page), avinorContext(fake.baseUrl))

  beforeEach(async () => {
    fake = await startFakeAvinor()
    clock = { t: Date.parse('2026-09-25T14:22:33Z') }
    getFlights = createGetFlights(createAvinorFeeds({ now: () => clock.t }))
  })
  afterEach(async () => {
    await fake.close()
  })

  it('maps every flight of the window, earliest first, with names, statuses and via airports', async () => {
    const { data: answer } = await run()
    expect(v.parse(getFlights.output, answer)).toEqual(answer)
    const data = answer.flights
    expect(data.map((f) => f.flight_id)).toEqual(DEFAULT_WINDOW_IDS)
    expect(data.find((f) => f.flight_id === 'WF170')).toEqual({
      flight_id: 'WF170',
      airline: 'WF',
      airline_name: 'Widerøe',
      airport: 'BGO',
      airport_name: 'Bergen',
      schedule_time: '2026-09-25T13:40:00Z',
      direction: 'arrival',
      area: 'domestic',
      status: { code: 'E', time: '2026-09-25T14:40:00Z', text: 'New time', text_no: 'Ny tid' },
      delayed: true,
      gate: null,
      belt: '5',
      check_in: null,
      unique_id: '186536712',
      via_airports: [
        { code: 'SOG', name: 'Sogndal' },
        { code: 'HOV', name: 'Ørsta-Volda' },
      ],
    } satisfies Flight)
    expect(data.find((f) => f.flight_id === 'SK4416')).toMatchObject({
      direction: 'departure',
      airport_name: 'Tromsø',
      gate: 'D7',
      check_in: '7 8 9',
      status: { text: 'Departed', text_no: 'Avreist' },
      delayed: false,
    })
    expect(data.find((f) => f.flight_id === 'DY602')?.status).toEqual({
      code: 'C',
      time: null,
      text: 'Cancelled',
      text_no: 'Innstilt',
    })
    // A flight that is simply scheduled has no status at all, as the public gateway's clients expect.
    const scheduled = data.find((f) => f.flight_id === 'SK1301')
    expect(scheduled).toMatchObject({ airport_name: 'Ålesund' })
    expect(scheduled && 'status' in scheduled).toBe(false)
    expect(data.find((f) => f.flight_id === 'DY390')?.airport_name).toBe('Bodø')
    expect(data.find((f) => f.flight_id === 'BA763')).toMatchObject({
      area: 'international',
      airline_name: 'British Airways',
    })
    expect(data.find((f) => f.flight_id === 'DY1791')?.area).toBe('schengen')
    expect(data.some((f) => 'codeshares' in f)).toBe(false)
  })

  it('asks Avinor with its case-sensitive parameters, both directions and codeshares, and reports that URL', async () => {
    const result = await run({ direction: 'departures' })
    const calls = fake.requestsTo('/XmlFeed/v1.0')
    expect(calls.map((url) => url.search)).toEqual(['?airport=OSL&TimeFrom=1&TimeTo=7&codeshare=Y'])
    expect(result.sourceApi).toBe(`${fake.baseUrl}/XmlFeed/v1.0?airport=OSL&TimeFrom=1&TimeTo=7&codeshare=Y`)
    expect(result.rawValues).toEqual({ last_update: '2026-09-25T14:22:33.830916Z' })
  })

  it('filters by direction locally', async () => {
    const arrivals = await run({ direction: 'arrivals' })
    const departures = await run({ direction: 'departures' })
    expect(arrivals.data.flights.map((f) => f.flight_id)).toEqual(['DY1791', 'WF170', 'SK1301', 'BA763', 'SK4493'])
    expect(arrivals.data.flights.every((f) => f.direction === 'arrival')).toBe(true)
    expect(departures.data.flights.map((f) => f.flight_id)).toEqual([
      'SK4416',
      'DY390',
      'SK1470',
      'DY602',
      'DY1302',
      'KL1144',
    ])
  })

  it('passes hours_back and hours_ahead on as TimeFrom and TimeTo', async () => {
    const { data } = await run({ hours_back: 24, hours_ahead: 144 })
    expect(data.flights.map((f) => f.flight_id)).toEqual(['SK4412', ...DEFAULT_WINDOW_IDS, 'DY370', 'DY1160'])
    const narrow = await run({ hours_back: 0, hours_ahead: 1 })
    expect(narrow.data.flights.map((f) => f.flight_id)).toEqual(['DY390'])
    expect(fake.requestsTo('/XmlFeed/v1.0').map((url) => url.search)).toEqual([
      '?airport=OSL&TimeFrom=24&TimeTo=144&codeshare=Y',
      '?airport=OSL&TimeFrom=0&TimeTo=1&codeshare=Y',
    ])
  })

  it('adds codeshares only when asked for, named from the airline list', async () => {
    const { data: answer } = await run({ include_codeshare: true })
    expect(v.parse(getFlights.output, answer)).toEqual(answer)
    const data = answer.flights
    expect(data.find((f) => f.flight_id === 'SK1470')?.codeshares).toEqual([
      { flight_id: 'LH6201', airline: 'LH', airline_name: 'Lufthansa' },
      { flight_id: 'A31550', airline: 'A3', airline_name: 'Aegean Airlines' },
    ])
    expect(data.find((f) => f.flight_id === 'SK4493')?.codeshares).toEqual([
      { flight_id: 'WF9493', airline: 'WF', airline_name: 'Widerøe' },
    ])
    expect(data.find((f) => f.flight_id === 'DY602')?.codeshares).toEqual([])
    // The feed names the codeshare airline too; a code missing from the list falls back to it.
    expect(data.find((f) => f.flight_id === 'KL1144')?.codeshares?.map((c) => c.airline_name)).toEqual([
      'Delta Air Lines',
      'Air France',
    ])
  })

  it('caps at max_results, earliest first, and leaves limit and offset to the core', async () => {
    expect((await run({ max_results: 3 })).data.flights.map((f) => f.flight_id)).toEqual(['DY1791', 'WF170', 'SK4416'])
    expect((await run({ direction: 'departures', max_results: 2 })).data.flights.map((f) => f.flight_id)).toEqual([
      'SK4416',
      'DY390',
    ])
    expect((await run({}, { limit: 2, offset: 5 })).data.flights).toHaveLength(DEFAULT_WINDOW_IDS.length)
  })

  it('says so when max_results cut the flights, so a client paging on does not take them for all there are', async () => {
    const cut = await run({ max_results: 3 })
    expect(cut.capped).toEqual({
      cap: 3,
      reason: expect.stringMatching(/^max_results kept the 3 earliest of the \d+ flights in the window/),
    })
    expect((await run({ max_results: DEFAULT_WINDOW_IDS.length })).capped).toBeUndefined()
    expect((await run({})).capped).toBeUndefined()
  })

  it('calls the XmlFeed once for many concurrent and sequential calls that differ only in filters and paging', async () => {
    await fake.close()
    fake = await startFakeAvinor({ delayMs: 30 })
    const variants: Record<string, unknown>[] = [
      {},
      { direction: 'arrivals' },
      { direction: 'departures' },
      { include_codeshare: true },
      { include_codeshare: true, direction: 'arrivals' },
      { max_results: 3 },
      { airport_id: 'osl' },
      { airport_id: ' OSL ', max_results: 1000 },
    ]
    const pages = [
      { limit: 25, offset: 0 },
      { limit: 5, offset: 10 },
      { limit: 100, offset: 0 },
    ]
    const concurrent = variants.flatMap((variant) => pages.map((page) => run(variant, page)))
    const results = await Promise.all(concurrent)
    for (const variant of variants) for (const page of pages) await run(variant, page)
    clock.t += 59_000
    await run({ direction: 'arrivals' })

    expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(1)
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(1)
    expect(fake.requestsTo('/airlineNames/v1.0')).toHaveLength(1)
    expect(fake.requestsTo('/flightStatuses/v1.0')).toHaveLength(1)
    // The shared answer was still filtered per call.
    expect(results[3]?.data.flights).toHaveLength(5)
    expect(results[9]?.data.flights.some((f) => f.codeshares !== undefined)).toBe(true)
    expect(results[15]?.data.flights).toHaveLength(3)
  })

  it('asks again once a minute has passed, and separately per airport and window', async () => {
    await run()
    clock.t += 59_999
    await run()
    expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(1)
    clock.t += 1
    await run()
    await run({ hours_ahead: 8 })
    await run({ airport_id: 'TOS' })
    expect(fake.requestsTo('/XmlFeed/v1.0').map((url) => url.search)).toEqual([
      '?airport=OSL&TimeFrom=1&TimeTo=7&codeshare=Y',
      '?airport=OSL&TimeFrom=1&TimeTo=7&codeshare=Y',
      '?airport=OSL&TimeFrom=1&TimeTo=8&codeshare=Y',
      '?airport=TOS&TimeFrom=1&TimeTo=7&codeshare=Y',
    ])
  })

  it('answers 404 for an airport code missing from Avinor’s airport list, without asking the XmlFeed', async () => {
    const error = await run({ airport_id: 'XYZ' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GatewayError)
    expect(error).toMatchObject({
      status: 404,
      code: 'entity_not_found',
      message: "No airport with IATA code XYZ in Avinor's airport list",
    })
    expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(0)
  })

  it('answers an empty list for a listed airport Avinor has no flights for', async () => {
    const { data } = await run({ airport_id: 'ALC' })
    expect(data).toEqual({ flights: [] })
    expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(1)
  })

  it('reads a one-flight feed', async () => {
    const { data } = await run({ airport_id: 'BOO' })
    expect(data.flights).toEqual([
      expect.objectContaining({
        flight_id: 'WF0123',
        gate: '01',
        check_in: '01',
        airport_name: 'Sandnessjøen',
        via_airports: [{ code: 'MQN', name: 'Mo i Rana' }],
      }),
    ])
  })

  it('decodes ISO-8859-1 even when the Content-Type names another charset', async () => {
    await fake.close()
    fake = await startFakeAvinor({ contentType: 'text/xml; charset=utf-8' })
    const { data } = await run({ airport_id: 'TOS' })
    expect(data.flights.map((f) => f.airport_name)).toEqual(['Alta', 'Oslo', 'Oslo'])
    expect(data.flights[0]?.via_airports).toEqual([{ code: 'HFT', name: 'Hammerfest' }])
    const boo = await run({ airport_id: 'BOO' })
    expect(boo.data.flights[0]?.airport_name).toBe('Sandnessjøen')
  })

  describe('when Avinor answers something else than the feed', () => {
    it.each([
      [
        'html',
        'upstream_invalid_response',
        'Upstream Avinor flight data (avinor) answered an HTML page instead of the XmlFeed XML',
      ],
      [
        'empty',
        'upstream_invalid_response',
        'Upstream Avinor flight data (avinor) answered an empty body instead of the XmlFeed XML',
      ],
      [
        'wrong-root',
        'upstream_invalid_response',
        'Upstream Avinor flight data (avinor) answered XML with root element <error> instead of the XmlFeed XML',
      ],
      ['server-error', 'upstream_error', 'Upstream Avinor flight data (avinor) answered HTTP 500'],
    ] as const)('%s is a 502 that says so', async (behaviour, code, message) => {
      fake.misbehave('/XmlFeed/v1.0', behaviour)
      const error = await run().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UpstreamError)
      expect(error).toMatchObject({ status: 502, code, message })
    })

    it('malformed XML is a 502 that says so', async () => {
      fake.misbehave('/XmlFeed/v1.0', 'malformed')
      await expect(run()).rejects.toMatchObject({
        status: 502,
        code: 'upstream_invalid_response',
        message: expect.stringMatching(
          /^Upstream Avinor flight data \(avinor\) answered malformed XML .* instead of the XmlFeed XML$/,
        ),
      })
    })

    it('a failure is remembered for the minute too, so a broken feed is not hammered', async () => {
      fake.misbehave('/XmlFeed/v1.0', 'html')
      await expect(run()).rejects.toBeInstanceOf(UpstreamError)
      fake.misbehave('/XmlFeed/v1.0', 'ok')
      await expect(run({ direction: 'arrivals' })).rejects.toBeInstanceOf(UpstreamError)
      expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(1)
      clock.t += 60_000
      expect((await run()).data.flights).toHaveLength(DEFAULT_WINDOW_IDS.length)
      expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(2)
    })
  })

  it('still answers, with null names, when the name lists fail', async () => {
    fake.misbehave('/airportNames/v1.0', 'server-error')
    fake.misbehave('/flightStatuses/v1.0', 'html')
    const { data: answer } = await run()
    const data = answer.flights
    expect(data.map((f) => f.flight_id)).toEqual(DEFAULT_WINDOW_IDS)
    expect(data[0]).toMatchObject({ airport_name: null, status: { code: 'A', text: null }, airline_name: 'Norwegian' })
    expect(data.find((f) => f.flight_id === 'WF170')?.via_airports).toEqual([
      { code: 'SOG', name: null },
      { code: 'HOV', name: null },
    ])
  })

  it('names the queried airport, the other airports, via airports and airlines as entities', async () => {
    const params = paramsFor(getFlights, { direction: 'arrivals' })
    const { data } = await getFlights.run(params, avinorContext(fake.baseUrl))
    const entities = getFlights.entities?.(data, params) ?? []
    expect(entities[0]).toEqual({ type: 'airport', id: 'OSL', name: 'Oslo' })
    expect(entities.map((e) => `${e.type}:${e.id}:${e.name}`)).toEqual([
      'airport:OSL:Oslo',
      'airport:ALC:Alicante',
      'airport:BGO:Bergen',
      'airport:SOG:Sogndal',
      'airport:HOV:Ørsta-Volda',
      'airport:AES:Ålesund',
      'airport:LHR:London-Heathrow',
      'airport:LYR:Longyearbyen',
      'airport:TOS:Tromsø',
      'airline:DY:Norwegian',
      'airline:WF:Widerøe',
      'airline:SK:SAS',
      'airline:BA:British Airways',
    ])
  })

  describe('parameters', () => {
    const schema = () => v.object(createGetFlights(createAvinorFeeds()).parameters)
    const accepts = (input: Record<string, unknown>) => v.safeParse(schema(), { airport_id: 'OSL', ...input }).success

    it('applies the documented defaults', () => {
      expect(v.parse(schema(), { airport_id: 'osl' })).toEqual({
        airport_id: 'OSL',
        hours_back: 1,
        hours_ahead: 7,
        include_codeshare: false,
        max_results: 100,
      })
    })

    it('publishes the direction values as a picklist', () => {
      const direction = createGetFlights(createAvinorFeeds()).parameters.direction
      expect(direction.type).toBe('optional')
      expect(direction.wrapped.options).toEqual(['arrivals', 'departures'])
    })

    it.each([
      [{ airport_id: 'OS' }, false],
      [{ airport_id: 'O5L' }, false],
      [{ airport_id: 'OSLXX' }, false],
      [{ airport_id: 'ENGM' }, true],
      [{ direction: 'both' }, false],
      [{ direction: 'arrivals' }, true],
      [{ hours_back: 96 }, true],
      [{ hours_back: 97 }, false],
      [{ hours_back: -1 }, false],
      [{ hours_back: 1.5 }, false],
      [{ hours_ahead: 144 }, true],
      [{ hours_ahead: 145 }, false],
      [{ max_results: 0 }, false],
      [{ max_results: 1000 }, true],
      [{ max_results: 1001 }, false],
      [{ include_codeshare: 'yes' }, false],
      [{ include_codeshare: true }, true],
    ])('%j accepted: %s', (input, ok) => {
      expect(accepts(input)).toBe(ok)
    })
  })
})
