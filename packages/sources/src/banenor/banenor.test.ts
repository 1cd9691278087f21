import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestGateway, type FakeUpstream } from '@allmenning/core/testing'
import type { GatewayObserver } from '@allmenning/core/extension'
import { banenor, BANENOR_SUBSCRIPTION_KEY_VARIABLE } from './index.js'
import { FAKE_BANENOR_KEY, siriReply, startFakeBanenor } from './testing/fake-banenor.js'
import { DEMO_NETWORK, siriErrorAnswer, siriEtAnswer, type FixtureJourney } from './testing/siri-et-fixture.js'

type Train = {
  train: string
  origin: string
  destination: string
  destination_code: string | null
  departure_status: string | null
  arrival_status: string | null
  service: string
  operator: string
  operator_name: string | null
  line: string | null
  track: string | null
  delay_minutes: number | null
  cancelled: boolean
  at_stop: Record<string, string | null>
}

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeBanenor()
})
afterAll(() => fake.close())
afterEach(() => {
  fake.failWith(undefined)
  vi.restoreAllMocks()
})

const gatewayWith = (
  options: Parameters<typeof banenor>[0] = { subscriptionKey: FAKE_BANENOR_KEY },
  extra: { observers?: GatewayObserver[] } = {},
) => createTestGateway({ sources: banenor(options), upstreams: { banenor_siri_et: fake }, ...extra })

const trainsOf = (json: { data: { trains: Train[] } }) => json.data.trains

describe('get_station_board', () => {
  it("answers Oslo S's departures with its position, the freight train through it and the cancelled ones, soonest first", async () => {
    const gateway = gatewayWith()
    const res = await gateway.call('banenor', 'get_station_board', {
      station_id: 'OSL',
      minutes_ahead: 60,
      max_trains: 20,
      limit: 20,
    })
    expect(res.status).toBe(200)
    expect(res.json.data.station).toEqual({
      id: 'OSL',
      name: 'Oslo S',
      lat: 59.91092,
      lon: 10.75328,
      nsr_stop_place_id: 'NSR:StopPlace:337',
      kind: 'station',
    })
    const trains = trainsOf(res.json)
    // 2207 left a quarter of an hour ago, 2150 ends here, 602 arrives in seven hours: none departs in the hour.
    expect(trains.map((t) => t.train)).toEqual(['315', '3525', '2218', '861', '1817', '41823'])
    const [r10, flytoget, l1, skien, l2, freight] = trains as [Train, Train, Train, Train, Train, Train]
    expect(l1).toMatchObject({
      origin: 'Spikkestad',
      destination: 'Lillestrøm',
      line: 'L1',
      operator: 'VY',
      operator_name: 'Vy',
      service: 'passenger',
      track: '4',
      delay_minutes: 1,
      departure_status: 'delayed',
      cancelled: false,
    })
    expect(Date.parse(l1.at_stop['expected_departure']!) - Date.parse(l1.at_stop['aimed_departure']!)).toBe(60_000)
    expect(flytoget).toMatchObject({
      operator: 'FLY',
      operator_name: 'Flytoget',
      line: 'F2',
      destination: 'Oslo Lufthavn',
      destination_code: 'GAR',
      delay_minutes: 2,
    })
    expect(skien).toMatchObject({
      departure_status: 'cancelled',
      cancelled: true,
      delay_minutes: null,
      destination: 'Skien',
    })
    expect(l2).toMatchObject({ departure_status: 'cancelled', arrival_status: 'cancelled', cancelled: true })
    expect(freight).toMatchObject({
      service: 'freight',
      operator: 'CN',
      operator_name: 'CargoNet',
      line: null,
      track: '19',
      destination: 'Alnabru',
      destination_code: 'ALB',
    })
    // Answers that carry NSR quays instead of codes are matched by the stop's name.
    expect(r10).toMatchObject({
      line: 'R10',
      track: '11',
      origin: 'Drammen',
      destination: 'Hamar',
      destination_code: 'HMR',
    })
    expect(res.json._provenance).toBeDefined()
    expect(JSON.stringify(res.json._provenance)).toContain('Bane NOR')
    expect(gateway.errors).toEqual([])
  })

  it('takes the code in any case, the name, or the NSR id, and answers arrivals and freight alone when asked', async () => {
    const gateway = gatewayWith()
    for (const station_id of ['skø', 'SKØ', 'Skøyen', 'Skøyen stasjon', 'NSR:StopPlace:152']) {
      const res = await gateway.call('banenor', 'get_station_board', { station_id })
      expect(res.status, station_id).toBe(200)
      expect(res.json.data.station.id).toBe('SKØ')
    }
    const arrivals = await gateway.call('banenor', 'get_station_board', { station_id: 'OSL', direction: 'arrivals' })
    expect(trainsOf(arrivals.json).map((t) => t.train)).toContain('2150')
    const freight = await gateway.call('banenor', 'get_station_board', {
      station_id: 'ALB',
      direction: 'both',
      service: 'freight',
    })
    expect(freight.json.data.station).toMatchObject({ id: 'ALB', kind: 'freight_terminal', lat: 59.93242 })
    expect(trainsOf(freight.json).map((t) => [t.train, t.service])).toEqual([
      ['5501', 'freight'],
      ['41823', 'freight'],
    ])
  })

  it('shares one answer of the whole network between every board, and asks Bane NOR again only after 30 seconds', async () => {
    const gateway = gatewayWith()
    const before = fake.hits('/rest')
    await Promise.all(
      ['OSL', 'NTH', 'SKØ', 'BR', 'ALB'].map((station_id) =>
        gateway.call('banenor', 'get_station_board', { station_id }),
      ),
    )
    await gateway.call('banenor', 'get_station_board', { station_id: 'OSL', minutes_ahead: 120 })
    expect(fake.hits('/rest') - before).toBe(1)
    const request = fake.received.at(-1)!
    expect(request.method).toBe('POST')
    expect(request.headers['content-type']).toBe('application/xml')
    expect(request.headers['ocp-apim-subscription-key']).toBe(FAKE_BANENOR_KEY)
  })

  it('says when max_trains cut the board', async () => {
    const res = await gatewayWith().call('banenor', 'get_station_board', { station_id: 'OSL', max_trains: 2 })
    expect(res.status).toBe(200)
    expect(trainsOf(res.json)).toHaveLength(2)
    expect(JSON.stringify(res.json._meta)).toContain('max_trains=2')
  })

  it('says when Bane NOR kept part of the network back (MoreData)', async () => {
    const own = await startFakeBanenor({
      answer: () => siriReply(siriEtAnswer(DEMO_NETWORK, Date.now(), { moreData: true })),
    })
    try {
      const gateway = createTestGateway({
        sources: banenor({ subscriptionKey: FAKE_BANENOR_KEY }),
        upstreams: { banenor_siri_et: own },
      })
      const res = await gateway.call('banenor', 'get_station_board', { station_id: 'OSL' })
      expect(res.status).toBe(200)
      expect(JSON.stringify(res.json._meta)).toContain('MoreData')
    } finally {
      await own.close()
    }
  })

  it('answers a code the station table lacks by the name Bane NOR gives it, and 404 for one nobody calls at', async () => {
    const extra: FixtureJourney = {
      train: '5710',
      line: null,
      operator: 'GC',
      feature: 'freightTrain',
      calls: [
        { code: 'XYZ', name: 'Ukjent sidespor', depart: 10 },
        { code: 'ALB', name: 'Alnabru', arrive: 40 },
      ],
    }
    const own = await startFakeBanenor({ answer: () => siriReply(siriEtAnswer([...DEMO_NETWORK, extra], Date.now())) })
    try {
      const gateway = createTestGateway({
        sources: banenor({ subscriptionKey: FAKE_BANENOR_KEY }),
        upstreams: { banenor_siri_et: own },
      })
      const res = await gateway.call('banenor', 'get_station_board', { station_id: 'xyz' })
      expect(res.status).toBe(200)
      expect(res.json.data.station).toEqual({
        id: 'XYZ',
        name: 'Ukjent sidespor',
        lat: null,
        lon: null,
        nsr_stop_place_id: null,
        kind: 'unknown',
      })
      expect(trainsOf(res.json).map((t) => t.train)).toEqual(['5710'])
      const nobody = await gateway.call('banenor', 'get_station_board', { station_id: 'QQQ' })
      expect(nobody.status).toBe(404)
      expect(nobody.json.error.message).toContain('QQQ')
      const name = await gateway.call('banenor', 'get_station_board', { station_id: 'Ingen slik stasjon' })
      expect(name.status).toBe(404)
      expect(name.json.error.message).toContain('list_stations')
    } finally {
      await own.close()
    }
  })

  it('refuses bad parameters with a 400 naming the parameter', async () => {
    const gateway = gatewayWith()
    for (const [query, parameter] of [
      [{}, 'station_id'],
      [{ station_id: 'OSL', minutes_ahead: 0 }, 'minutes_ahead'],
      [{ station_id: 'OSL', minutes_ahead: 181 }, 'minutes_ahead'],
      [{ station_id: 'OSL', max_trains: 0 }, 'max_trains'],
      [{ station_id: 'OSL', direction: 'sideways' }, 'direction'],
      [{ station_id: 'OSL', service: 'cargo' }, 'service'],
    ] as const) {
      const res = await gateway.call('banenor', 'get_station_board', query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect(res.body).toContain(parameter)
    }
  })
})

describe('the subscription key', () => {
  it('is asked for by name when missing: 502 upstream_not_configured, and not_configured in discovery', async () => {
    const gateway = gatewayWith({})
    const before = fake.hits()
    const res = await gateway.call('banenor', 'get_station_board', { station_id: 'OSL' })
    expect(res.status).toBe(502)
    expect(res.json.error.code).toBe('upstream_not_configured')
    expect(res.body).toContain(BANENOR_SUBSCRIPTION_KEY_VARIABLE)
    expect(fake.hits()).toBe(before)
    // The station operations need no key.
    expect((await gateway.call('banenor', 'list_stations', { query: 'Bryn' })).status).toBe(200)
    const source = await gateway.get('/api/v1/kilder/banenor')
    const board = source.json.operations.find((o: { name: string }) => o.name === 'get_station_board')
    expect(board).toMatchObject({ configured: false, configure: [BANENOR_SUBSCRIPTION_KEY_VARIABLE] })
    const health = await gateway.get('/api/v1/health')
    expect(health.json.sources[0].not_configured).toEqual([
      { configure: BANENOR_SUBSCRIPTION_KEY_VARIABLE, operations: ['get_station_board'] },
    ])
  })

  it('never appears in an answer, an error message, a log line or an observer event, even when Bane NOR refuses it', async () => {
    const secret = 'sup3r-s3cret-banenor-key'
    const events: string[] = []
    const record = (name: string) => (event: unknown) => {
      events.push(`${name} ${JSON.stringify(event)}`)
    }
    const observer: GatewayObserver = {
      requestStarted: record('requestStarted'),
      requestFinished: record('requestFinished'),
      upstreamCallStarted: record('upstreamCallStarted'),
      upstreamCallFinished: record('upstreamCallFinished'),
      cacheLookup: record('cacheLookup'),
    }
    const logged: string[] = []
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '))
      })
    }
    const refused = gatewayWith({ subscriptionKey: secret }, { observers: [observer] })
    const res = await refused.call('banenor', 'get_station_board', { station_id: 'OSL' })
    expect(res.status).toBe(502)
    expect(res.body).toContain(BANENOR_SUBSCRIPTION_KEY_VARIABLE)
    expect(res.body).toContain('refused')
    const accepted = gatewayWith({ subscriptionKey: FAKE_BANENOR_KEY }, { observers: [observer] })
    const ok = await accepted.call('banenor', 'get_station_board', { station_id: 'OSL' })
    expect(ok.status).toBe(200)
    expect(events.length).toBeGreaterThan(4)
    const everything = [
      res.body,
      ok.body,
      ...events,
      ...logged,
      ...refused.errors.map((e) => String(e.error)),
      ...accepted.errors.map((e) => String(e.error)),
    ].join('\n')
    expect(everything).not.toContain(secret)
    expect(everything).not.toContain(FAKE_BANENOR_KEY)
  })
})

describe('what Bane NOR may answer instead', () => {
  it('is a 502 naming Bane NOR: a SIRI ErrorCondition, an HTML page, malformed or cut-off XML, another document, an error status', async () => {
    const now = Date.now()
    const whole = siriEtAnswer(DEMO_NETWORK, now)
    const cases: [string, { status?: number; headers?: Record<string, string>; body: string }, string][] = [
      ['error condition', { body: siriErrorAnswer('Unknown RequestorRef', now) }, 'Unknown RequestorRef'],
      [
        'html',
        { headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><body>Maintenance</body></html>' },
        'HTML page',
      ],
      ['cut off', { body: whole.slice(0, Math.floor(whole.length / 2)) }, 'breaks off'],
      [
        'malformed',
        { body: whole.replace('<StopPointName>Oslo S</StopPointName>', '<StopPointName>Oslo S</StopPoint>') },
        'malformed XML',
      ],
      [
        'other document',
        { body: '<?xml version="1.0"?><PublicationDelivery xmlns="http://www.netex.org.uk/netex"/>' },
        'root element <PublicationDelivery>',
      ],
      [
        'no delivery',
        {
          body: '<Siri xmlns="http://www.siri.org.uk/siri"><ServiceDelivery><ResponseTimestamp>x</ResponseTimestamp></ServiceDelivery></Siri>',
        },
        'without an EstimatedTimetableDelivery',
      ],
      ['status', { status: 503, body: 'Service Unavailable' }, 'HTTP 503'],
    ]
    for (const [what, reply, says] of cases) {
      fake.failWith({
        status: reply.status ?? 200,
        headers: reply.headers ?? { 'content-type': 'application/xml; charset=utf-8' },
        body: reply.body,
      })
      const gateway = gatewayWith()
      const res = await gateway.call('banenor', 'get_station_board', { station_id: 'OSL' })
      expect(res.status, what).toBe(502)
      expect(res.json.error.message, what).toContain('Bane NOR')
      expect(res.json.error.message, what).toContain(says)
      expect(res.body, what).not.toContain('    at ')
      expect(gateway.errors, what).toEqual([])
    }
  })
})

describe('list_stations, find_stations_nearby and the entity search', () => {
  it('finds stations by name or code with their positions, and lists them all', async () => {
    const gateway = gatewayWith({})
    const skoyen = await gateway.call('banenor', 'list_stations', { query: 'skoyen' })
    expect(skoyen.json.data.stations[0]).toMatchObject({ id: 'SKØ', name: 'Skøyen', lat: 59.92235, lon: 10.67883 })
    const code = await gateway.call('banenor', 'list_stations', { query: 'NTH' })
    expect(code.json.data.stations[0]).toMatchObject({ id: 'NTH', name: 'Nationaltheatret' })
    const all = await gateway.call('banenor', 'list_stations', { limit: 200 })
    expect(all.json.data.stations.length).toBe(200)
    expect(all.json.data.has_more_results).toBe(true)
    for (const station of all.json.data.stations as { lat: unknown; lon: unknown }[]) {
      expect(typeof station.lat).toBe('number')
      expect(typeof station.lon).toBe('number')
    }
  })

  it('answers the stations near a point, nearest first, and the place field train_stations', async () => {
    const gateway = gatewayWith({})
    const near = await gateway.call('banenor', 'find_stations_nearby', { lat: 59.9139, lon: 10.7522, radius_km: 3 })
    const ids = (near.json.data.stations as { id: string; distance_km: number }[]).map((s) => s.id)
    expect(ids[0]).toBe('OSL')
    expect(ids).toContain('NTH')
    expect(ids).not.toContain('SKØ')
    const place = await gateway.get('/api/v1/steder/59.9139/10.7522', { fields: 'train_stations' })
    expect(place.status).toBe(200)
    expect(place.body).toContain('Oslo S')
  })

  it('lets /api/v1/sok/alle find a station by name or code, and /api/v1/steder/sok with its position', async () => {
    const gateway = gatewayWith({})
    for (const q of ['Nationaltheatret', 'NTH']) {
      const res = await gateway.get('/api/v1/sok/alle', { q })
      expect(res.status).toBe(200)
      expect(res.json.results[0]).toMatchObject({ type: 'train_station', id: 'NTH', source: 'banenor' })
      expect(res.json.results[0]._links.api).toBe('/api/v1/kilder/banenor/get_station_board?station_id=NTH')
    }
    const places = await gateway.get('/api/v1/steder/sok', { q: 'Nationaltheatret' })
    expect(places.status).toBe(200)
    expect(places.body).toContain('59.91539')
  })
})
