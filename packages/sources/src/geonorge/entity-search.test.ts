import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'
import { geonorge } from './index.js'
import { startFakeKartverketAdresser, startFakeKartverketStedsnavn } from './testing/fake-kartverket.js'

let adresser: FakeUpstream
let stedsnavn: FakeUpstream
let down: FakeUpstream

const gatewayFor = (stedsnavnUrl = stedsnavn.baseUrl): Gateway =>
  createGateway({
    sources: [geonorge()],
    upstreams: {
      kartverket_adresser: { baseUrl: adresser.baseUrl },
      kartverket_stedsnavn: { baseUrl: stedsnavnUrl, timeoutMs: 500 },
    },
    onError: () => {},
  })

const get = async (gateway: Gateway, path: string, query: string) => {
  const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body!) }
}

beforeAll(async () => {
  ;[adresser, stedsnavn, down] = await Promise.all([
    startFakeKartverketAdresser(),
    startFakeKartverketStedsnavn(),
    startFakeUpstream({ '/sted': () => ({ status: 503, body: 'Service Unavailable' }) }),
  ])
})
afterAll(() => Promise.all([adresser.close(), stedsnavn.close(), down.close()]))

describe('geonorge in /steder/sok', () => {
  it('finds place names with their place and a link to the place and to the operation', async () => {
    const { status, json } = await get(gatewayFor(), '/api/v1/steder/sok', 'q=Heggmoen')
    expect(status).toBe(200)
    expect(json.results.map((r: { type: string; name: string }) => [r.type, r.name])).toEqual([
      ['place', 'Heggmoen'],
      ['place', 'Heggmoen'],
    ])
    expect(json.results[0]).toMatchObject({
      id: '870466',
      description: 'Bruk in Hemnes',
      lat: 65.90951,
      lon: 14.26984,
      source: 'geonorge',
      _links: {
        place: '/api/v1/steder/65.90951/14.26984',
        api: '/api/v1/kilder/geonorge/search_place_name?place_id=870466',
      },
    })
  })

  it('ranks addresses and place names together, and links an address to search_address within its municipality', async () => {
    const { json } = await get(gatewayFor(), '/api/v1/steder/sok', 'q=Oslo')
    // The place named Oslo matches the whole text; Kartverket found the addresses by their postal place, so they rank after it.
    expect(json.results[0]).toMatchObject({ type: 'place', name: 'Oslo', description: 'By in Oslo' })
    expect(json.results.slice(1).every((r: { type: string }) => r.type === 'address')).toBe(true)
    const address = await get(gatewayFor(), '/api/v1/steder/sok', 'q=Karl%20Johans%20gate%2022')
    expect(address.json.results[0]).toMatchObject({
      type: 'address',
      name: 'Karl Johans gate 22',
      description: 'Address, 0159 OSLO (OSLO)',
      lat: 59.91356901274554,
      lon: 10.740418355472109,
      _links: { api: '/api/v1/kilder/geonorge/search_address?text=Karl%20Johans%20gate%2022&kommunenummer=0301' },
    })
  })

  it('still gives the addresses when the place-name register is down', async () => {
    const { status, json } = await get(gatewayFor(down.baseUrl), '/api/v1/steder/sok', 'q=Robert%20Levins%20gate')
    expect(status).toBe(200)
    expect(json.results.map((r: { name: string }) => r.name)).toEqual([
      'Robert Levins gate 1',
      'Robert Levins gate 3',
      'Robert Levins gate 5B',
    ])
  })
})
