import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GatewayObserver } from '@allmenning/core/extension'
import { createTestGateway, fakeReply, type FakeReply } from '@allmenning/core/testing'
import { vegvesen } from './index.js'
import { startFakeTrafikkdata, type FakeTrafikkdata } from './testing/fake-trafikkdata.js'
import {
  DATEX_SNAPSHOT_PATH,
  FAKE_DATEX_PASSWORD,
  FAKE_DATEX_USERNAME,
  startFakeDatex,
  type FakeDatex,
} from './testing/fake-datex.js'

let datex: FakeDatex

beforeAll(async () => {
  datex = await startFakeDatex()
})
afterAll(() => datex.close())

const credentials = { datexUsername: FAKE_DATEX_USERNAME, datexPassword: FAKE_DATEX_PASSWORD }
const gatewayFor = (options = credentials, observers: GatewayObserver[] = []) =>
  createTestGateway({
    sources: vegvesen(options),
    upstreams: { vegvesen_datex: datex },
    upstream: { breakAfterFailures: 0 },
    observers,
  })
const oslo = { lat: 59.91, lon: 10.75 }
const ids = (json: { data: { messages: { situation_id: string }[] } }) => json.data.messages.map((m) => m.situation_id)

describe('get_traffic_messages', () => {
  it("answers the situations in force near the point, nearest first, in the rows the public gateway's clients read", async () => {
    const gateway = gatewayFor()
    const { status, json, headers } = await gateway.call('vegvesen', 'get_traffic_messages', { ...oslo, limit: 100 })
    expect(status).toBe(200)
    // Planned, suspended, ended, test and unplaceable situations are not in force here: two are.
    expect(ids(json)).toEqual(['NPRA_HBT_20-11-2026.4101', 'NPRA_HBT_25-11-2026.4120'])
    expect(json.data.messages[0]).toEqual({
      situation_id: 'NPRA_HBT_20-11-2026.4101',
      type: 'MaintenanceWorks',
      sub_types: ['roadworks', 'roadClosed', 'followDiversionSigns'],
      description: 'Vegarbeid, vegen er stengt om natta. Vegen er stengt mellom 20:00 og 06:00. Omkjøring er skiltet.',
      location: 'E18 Festningstunnelen i Oslo',
      road: 'E18',
      road_name: 'Festningstunnelen',
      severity: 'high',
      lat: 59.9079,
      lon: 10.7366,
      // To the nearest of its positions: the eastern end of the stretch, not its display point.
      distance_km: 0.457,
      start_time: datex.at('2026-11-23T20:00:00+01:00'),
      end_time: datex.at('2026-11-27T06:00:00+01:00'),
      last_update: datex.at('2026-11-24T19:52:31+01:00'),
      active: true,
      status: 'active',
    })
    // No overall severity: the worst of its records'; open-ended.
    expect(json.data.messages[1]).toMatchObject({
      type: 'Accident',
      sub_types: ['collision', 'laneClosures'],
      severity: 'medium',
      road: 'Rv150',
      end_time: null,
      distance_km: 3.634,
    })
    expect(json.data.publication_time).toBe(datex.at('2026-11-25T10:00:00.412+01:00'))
    expect(json.data.has_more_results).toBe(false)
    expect(headers['cache-control']).toMatch(/max-age=60\b/)
    expect(json._provenance.upstreams).toEqual([
      expect.objectContaining({
        id: 'vegvesen_datex',
        license: 'NLOD 2.0',
        publisher: expect.stringMatching(/^Statens vegvesen/),
      }),
    ])
    expect(gateway.errors).toEqual([])
  })

  it('adds situations yet to start and suspended ones with include_planned, never ended ones', async () => {
    const gateway = gatewayFor()
    const { json } = await gateway.call('vegvesen', 'get_traffic_messages', {
      ...oslo,
      radius_km: 50,
      include_planned: 'yes',
    })
    expect(
      json.data.messages.map((m: { situation_id: string; active: boolean; status: string }) => [
        m.situation_id,
        m.active,
        m.status,
      ]),
    ).toEqual([
      ['NPRA_HBT_20-11-2026.4101', true, 'active'],
      ['NPRA_HBT_24-11-2026.4098', false, 'planned'],
      ['NPRA_HBT_25-11-2026.4120', true, 'active'],
      ['NPRA_HBT_02-11-2026.3005', false, 'suspended'],
    ])
    // A group of locations: the first display point is where it is shown.
    expect(json.data.messages[1]).toMatchObject({
      lat: 59.92851,
      lon: 10.77903,
      location: 'Rv. 4 Sinsenkrysset i Oslo',
      start_time: datex.at('2026-11-26T21:00:00+01:00'),
    })
    const withoutPlanned = await gateway.call('vegvesen', 'get_traffic_messages', {
      ...oslo,
      radius_km: 50,
      include_planned: false,
    })
    expect(ids(withoutPlanned.json)).toEqual(['NPRA_HBT_20-11-2026.4101', 'NPRA_HBT_25-11-2026.4120'])
  })

  it('prefers Norwegian texts and falls back to the only language given', async () => {
    const { json } = await gatewayFor().call('vegvesen', 'get_traffic_messages', {
      lat: 62.07,
      lon: 9.12,
      radius_km: 5,
    })
    expect(json.data.messages).toEqual([
      expect.objectContaining({
        situation_id: 'NPRA_HBT_25-11-2026.4130',
        type: 'AnimalPresenceObstruction',
        sub_types: ['largeAnimalsOnTheRoad'],
        description: 'Reindeer on the road. Drive carefully.',
        location: 'E6 Dovrefjell, Dovre',
        severity: 'low',
      }),
    ])
    const bergen = await gatewayFor().call('vegvesen', 'get_traffic_messages', { lat: 60.39, lon: 5.32 })
    expect(bergen.json.data.messages).toEqual([
      expect.objectContaining({
        situation_id: 'NPRA_HBT_25-11-2026.4111',
        type: 'EnvironmentalObstruction',
        sub_types: ['rockfalls', 'roadClosed'],
        severity: 'highest',
      }),
    ])
  })

  it('fetches the snapshot once for every request while it is fresh, calls at the same time sharing one fetch', async () => {
    const gateway = gatewayFor()
    const before = datex.hits(DATEX_SNAPSHOT_PATH)
    const answers = await Promise.all(
      [oslo, { lat: 60.39, lon: 5.32 }, { lat: 62.07, lon: 9.12 }].map((p) =>
        gateway.call('vegvesen', 'get_traffic_messages', p),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    await gateway.call('vegvesen', 'get_traffic_messages', { lat: 60.43, lon: 7.54 })
    expect(datex.hits(DATEX_SNAPSHOT_PATH) - before).toBe(1)
    const asked = datex.received[datex.received.length - 1]!
    expect(asked.headers.authorization).toBe(
      `Basic ${Buffer.from(`${FAKE_DATEX_USERNAME}:${FAKE_DATEX_PASSWORD}`).toString('base64')}`,
    )
  })
})

describe('the DATEX username and password', () => {
  it('answers 502 upstream_not_configured naming the variables when they are not given, without calling Vegvesen', async () => {
    const before = datex.hits()
    const none = await gatewayFor({ datexUsername: '', datexPassword: '' }).call(
      'vegvesen',
      'get_traffic_messages',
      oslo,
    )
    expect(none.status).toBe(502)
    expect(none.json.error).toMatchObject({ code: 'upstream_not_configured', upstream: 'vegvesen_datex' })
    expect(none.json.error.message).toBe(
      "Upstream Statens vegvesen DATEX II (vegvesen_datex) needs a username and password (issued on registration at Statens vegvesen's DATEX page): set ALLMENNING_VEGVESEN_DATEX_USERNAME and ALLMENNING_VEGVESEN_DATEX_PASSWORD",
    )
    const half = await gatewayFor({ datexUsername: FAKE_DATEX_USERNAME, datexPassword: '' }).call(
      'vegvesen',
      'get_traffic_messages',
      oslo,
    )
    expect(half.json.error.code).toBe('upstream_not_configured')
    expect(datex.hits()).toBe(before)
    // The traffic-data operations need neither.
    expect((await gatewayFor({ datexUsername: '', datexPassword: '' }).get('/api/v1/kilder/vegvesen')).status).toBe(200)
  })

  it('turns a refused password into a 502 naming Vegvesen and the variables, and never shows the password or the username', async () => {
    const events: string[] = []
    const record = (event: unknown) => void events.push(inspect(event, { depth: 8 }))
    const observer: GatewayObserver = {
      requestStarted: record,
      requestFinished: record,
      upstreamCallStarted: record,
      upstreamCallFinished: record,
      cacheLookup: record,
    }
    const wrong = 'Wr0ng-pass-77f1'
    const gateway = gatewayFor({ datexUsername: FAKE_DATEX_USERNAME, datexPassword: wrong }, [observer])
    const { status, json, body, headers } = await gateway.call('vegvesen', 'get_traffic_messages', oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({ code: 'upstream_error', upstream: 'vegvesen_datex' })
    expect(json.error.message).toBe(
      'Upstream Statens vegvesen DATEX II (vegvesen_datex) refused the configured username and password (HTTP 401); check ALLMENNING_VEGVESEN_DATEX_USERNAME and ALLMENNING_VEGVESEN_DATEX_PASSWORD',
    )
    const secrets = [wrong, FAKE_DATEX_USERNAME, Buffer.from(`${FAKE_DATEX_USERNAME}:${wrong}`).toString('base64')]
    const seen = [
      body,
      JSON.stringify(headers),
      ...events,
      ...gateway.errors.map((e) => inspect(e, { depth: 8 })),
    ].join('\n')
    expect(events.length).toBeGreaterThan(2)
    for (const secret of secrets) expect(seen).not.toContain(secret)
    // Nor in a good answer, nor anything the gateway heard while making it.
    events.length = 0
    const good = await gatewayFor(credentials, [observer]).call('vegvesen', 'get_traffic_messages', oslo)
    expect(good.status).toBe(200)
    const shown = [good.body, JSON.stringify(good.headers), ...events].join('\n')
    for (const secret of [
      FAKE_DATEX_PASSWORD,
      FAKE_DATEX_USERNAME,
      Buffer.from(`${FAKE_DATEX_USERNAME}:${FAKE_DATEX_PASSWORD}`).toString('base64'),
    ]) {
      expect(shown).not.toContain(secret)
    }
  })
})

describe('when the DATEX server answers something else', () => {
  const container = (payload: string) =>
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><ns2:messageContainer xmlns="http://datex2.eu/schema/3/common" xmlns:ns2="http://datex2.eu/schema/3/messageContainer" xmlns:ns12="http://datex2.eu/schema/3/situation" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" modelBaseVersion="3">${payload}</ns2:messageContainer>`
  const xml = (text: string): FakeReply => fakeReply.xml(text, { contentType: 'application/xml;charset=UTF-8' })

  it.each([
    [
      'an HTML maintenance page with status 200',
      fakeReply.html('<!DOCTYPE html><html><body>Vedlikehold</body></html>'),
      'upstream_invalid_response',
      /answered an HTML page instead of a DATEX II 3 SituationPublication/,
    ],
    [
      'a DATEX II 2 document',
      xml('<?xml version="1.0"?><d2LogicalModel xmlns="http://datex2.eu/schema/2/2_0" modelBaseVersion="2"/>'),
      'upstream_invalid_response',
      /root element <d2LogicalModel>/,
    ],
    [
      'another publication',
      xml(container('<ns2:payload xsi:type="ns10:MeasuredDataPublication" lang="no"/>')),
      'upstream_invalid_response',
      /payload of type MeasuredDataPublication/,
    ],
    [
      'a snapshot cut off',
      xml(
        container('<ns2:payload xsi:type="ns12:SituationPublication" lang="no"><ns12:situation id="A">').slice(0, -30),
      ),
      'upstream_invalid_response',
      /malformed XML/,
    ],
    [
      'a snapshot without any situation',
      xml(
        container(
          '<ns2:payload xsi:type="ns12:SituationPublication" lang="no"><publicationTime>2026-11-25T10:00:00+01:00</publicationTime></ns2:payload>',
        ),
      ),
      'upstream_invalid_response',
      /implausible situation snapshot \(0 items/,
    ],
    ['an error status', fakeReply.status(503, 'Service Unavailable'), 'upstream_error', /answered HTTP 503/],
  ])('answers %s with a 502 naming the upstream', async (_name, reply, code, message) => {
    datex.failWith(reply, { times: 1 })
    const gateway = gatewayFor()
    const { status, json } = await gateway.call('vegvesen', 'get_traffic_messages', oslo)
    expect(status).toBe(502)
    expect(json.error).toMatchObject({
      code,
      upstream: 'vegvesen_datex',
      message: expect.stringMatching(/^Upstream Statens vegvesen DATEX II \(vegvesen_datex\) /),
    })
    expect(json.error.message).toMatch(message)
    expect(gateway.errors).toEqual([])
  })
})

describe('the traffic_messages place field', () => {
  let trafikkdata: FakeTrafikkdata
  beforeAll(async () => {
    trafikkdata = await startFakeTrafikkdata()
  })
  afterAll(() => trafikkdata.close())
  const bundle = (options: typeof credentials) =>
    createTestGateway({
      sources: vegvesen(options),
      upstreams: { vegvesen_datex: datex, vegvesen_trafikkdata: trafikkdata },
    }).get('/api/v1/steder/59.91/10.75', { section: 'transport' })

  it('holds the messages in force near the point, beside the registration points', async () => {
    const { status, json } = await bundle(credentials)
    expect(status).toBe(200)
    expect(Object.keys(json.fields)).toEqual(['traffic_registration_points', 'traffic_messages'])
    expect(json.fields.traffic_messages).toMatchObject({
      status: 'ok',
      source: 'vegvesen',
      operation: 'get_traffic_messages',
    })
    expect(ids(json.fields.traffic_messages)).toEqual(['NPRA_HBT_20-11-2026.4101', 'NPRA_HBT_25-11-2026.4120'])
  })

  it('says which variable to set when the DATEX credentials are not given, and still answers the other fields', async () => {
    const { status, json } = await bundle({ datexUsername: '', datexPassword: '' })
    expect(status).toBe(200)
    expect(json.fields.traffic_messages).toMatchObject({
      status: 'not_configured',
      configure: 'ALLMENNING_VEGVESEN_DATEX_USERNAME',
    })
    expect(json.fields.traffic_registration_points.status).toBe('ok')
  })
})
