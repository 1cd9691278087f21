import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/express-server/src/app.js'
import { startFakeAvinor, type FakeAvinor } from '@allmenning/sources/avinor/testing'
import { startFakeBrreg, type FakeBrreg } from '@allmenning/sources/firmafakta/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'
import { offlineEnvironment } from '../support/offline-environment.js'

// Clients written against the public gateway (live-gateway.md) call
// https://<host>/wiki/api/v1/kilder/... . Served with MOUNT_PATH=/wiki, the example server
// must answer them with exactly the fields they read, so moving them means changing the host.

let statnett: FakeUpstream
let avinor: FakeAvinor
let brreg: FakeBrreg
let server: Server
let host: string

beforeAll(async () => {
  ;[statnett, avinor, brreg] = await Promise.all([startFakeStatnett(), startFakeAvinor(), startFakeBrreg()])
  const env = offlineEnvironment({
    MOUNT_PATH: '/wiki',
    ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl,
    ALLMENNING_UPSTREAM_AVINOR: avinor.baseUrl,
    ALLMENNING_UPSTREAM_BRREG: brreg.baseUrl,
  })
  server = createServer(createApp(env, { onError: () => {} }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await Promise.all([statnett.close(), avinor.close(), brreg.close()])
})

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function getJson(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${host}${path}`)
  return { status: res.status, body: await res.json() }
}

interface ClientFlight {
  flight_id: string
  airline: string
  airport: string
  schedule_time: string
  status?: { code: string; time: string | null; text: string | null }
  delayed: boolean
  gate: string | null
  belt: string | null
  area: 'domestic' | 'schengen' | 'international' | null
}

/** What the clients check of every row: they fail on a row without flight_id or schedule_time. */
function readFlight(row: ClientFlight) {
  expect(typeof row.flight_id).toBe('string')
  expect(Date.parse(row.schedule_time)).not.toBeNaN()
  expect(row.schedule_time.endsWith('Z')).toBe(true)
  expect(typeof row.airline).toBe('string')
  expect(typeof row.airport).toBe('string')
  expect(typeof row.delayed).toBe('boolean')
  expect(['domestic', 'schengen', 'international', null]).toContain(row.area)
  if (row.status !== undefined) {
    expect(['A', 'D', 'E', 'C', 'N']).toContain(row.status.code)
    expect(row.status).toHaveProperty('time')
    expect(row.status).toHaveProperty('text')
  }
  return row
}

describe('a flight board written against the public gateway', () => {
  const board =
    '/wiki/api/v1/kilder/avinor/get_flights?airport_id=OSL&direction=departures&hours_back=1&hours_ahead=36&max_results=1000'

  it('reads data.flights, data.has_more_results and the row fields it shows', async () => {
    const { status, body } = await getJson(`${board}&limit=100&offset=0`)
    expect(status).toBe(200)
    expect(typeof body._meta.retrieved_at).toBe('string')
    expect(body.data.has_more_results).toBe(false)
    expect(body._meta.pagination.has_more_results).toBe(false)
    const flights = (body.data.flights as ClientFlight[]).map(readFlight)
    expect(flights.map((f) => f.flight_id)).toEqual(['SK4416', 'DY390', 'SK1470', 'DY602', 'DY1302', 'KL1144', 'DY370'])
    expect(flights.find((f) => f.flight_id === 'SK4416')).toMatchObject({
      airline: 'SK',
      airport: 'TOS',
      gate: 'D7',
      status: { code: 'D', text: 'Departed' },
    })
    expect(flights.find((f) => f.flight_id === 'DY602')?.status).toMatchObject({
      code: 'C',
      time: null,
      text: 'Cancelled',
    })
    expect(body._links.self).toMatch(/^\/wiki\/api\/v1\/kilder\/avinor\/get_flights\?/)
  })

  it('pages on offset until has_more_results is false, losing and repeating nothing', async () => {
    const all = (await getJson(`${board}&limit=100&offset=0`)).body.data.flights.map((f: ClientFlight) => f.flight_id)
    const seen: string[] = []
    for (let offset = 0; ; offset += 4) {
      const { body } = await getJson(`${board}&limit=4&offset=${offset}`)
      seen.push(...body.data.flights.map((f: ClientFlight) => readFlight(f).flight_id))
      expect(body.data.has_more_results).toBe(body._meta.pagination.has_more_results)
      if (!body.data.has_more_results || body.data.flights.length < 4) break
    }
    expect(seen).toEqual(all)
  })

  it('sends booleans as true/false', async () => {
    const { status, body } = await getJson(`${board}&include_codeshare=true&limit=100&offset=0`)
    expect(status).toBe(200)
    expect(body.parameters.include_codeshare).toBe(true)
    expect(body.data.flights.find((f: { flight_id: string }) => f.flight_id === 'SK1470').codeshares[0]).toMatchObject({
      flight_id: 'LH6201',
      airline: 'LH',
    })
  })

  it('looks airports and airlines up as bare lists of {code, name}', async () => {
    const airports = await getJson('/wiki/api/v1/kilder/avinor/lookup_airport?query=Troms%C3%B8')
    expect(airports.body.data).toEqual([{ code: 'TOS', name: 'Tromsø' }])
    const airlines = await getJson('/wiki/api/v1/kilder/avinor/lookup_airline?query=wideroe')
    expect(airlines.body.data).toEqual([{ code: 'WF', name: 'Widerøe' }])
  })
})

describe('a company page written against the public gateway', () => {
  it("reads Brønnøysund's own fields of selskapsdetaljer", async () => {
    const { status, body } = await getJson('/wiki/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=976030788')
    expect(status).toBe(200)
    expect(body.data.organisasjonsnummer).toBe('976030788')
    expect(body.data.navn).toBe('SESAM AS')
    expect(body.data.naeringskode1).toEqual({ kode: '56.101', beskrivelse: 'Drift av restauranter og kafeer' })
    expect(body.data.antallAnsatte).toBe(10)
    expect(body.data.forretningsadresse.kommune).toBe('TRONDHEIM')
    expect(body.data).toHaveProperty('stiftelsesdato')
  })

  it('shows error.message when a request fails, and treats the body as failure by its error key', async () => {
    const { status, body } = await getJson('/wiki/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=12345')
    expect(status).toBe(400)
    expect(body.error.message).toMatch(/org_nr/)
    expect(body).not.toHaveProperty('data')
  })
})
