import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import type { FakeUpstream } from '@allmenning/core/testing'
import { startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { startFakeStatnett } from './testing/fake-statnett.js'
import { statnett } from './index.js'

let statnettFake: FakeUpstream
let kartverket: FakeUpstream
let gateway: Gateway

beforeAll(async () => {
  ;[statnettFake, kartverket] = await Promise.all([startFakeStatnett(), startFakeKartverketAdresser()])
  gateway = createGateway({
    sources: [statnett()],
    upstreams: { statnett: { baseUrl: statnettFake.baseUrl }, kartverket_adresser: { baseUrl: kartverket.baseUrl } },
    onError: () => {},
  })
})
afterAll(() => Promise.all([statnettFake.close(), kartverket.close()]))

const priceArea = async (lat: number, lon: number) => {
  const res = await gateway.handle({
    method: 'GET',
    path: '/api/v1/kilder/statnett/get_price_area',
    query: `lat=${lat}&lon=${lon}`,
    headers: {},
  })
  return { status: res.status, json: JSON.parse(res.body!) }
}

describe('get_price_area', () => {
  it('places a point in Oslo in NO1 by its county, with the power situation there', async () => {
    const { status, json } = await priceArea(59.9129, 10.7563)
    expect(status).toBe(200)
    expect(json.data).toEqual({
      area: 'NO1',
      area_name: 'NO1 Øst-Norge (Oslo)',
      basis: 'county',
      municipality_number: '0301',
      county: 'Oslo',
      note: 'The area of Oslo, the county of the nearest address.',
      power_situation: { status: 'Normal', description: 'Normal situation', description_no: 'Normal situasjon' },
    })
    expect(json._provenance.upstreams.map((u: { id: string }) => u.id)).toEqual(['kartverket_adresser', 'statnett'])
    expect(json.entities).toEqual([expect.objectContaining({ type: 'price_area', id: 'NO1' })])
  })

  it('says where the county rule may be wrong: Bergen in NO5, Helgeland near NO3', async () => {
    expect((await priceArea(60.3976, 5.3232)).json.data).toMatchObject({
      area: 'NO5',
      county: 'Vestland',
      note: expect.stringMatching(/Sunnhordland lies in NO2/),
    })
    expect((await priceArea(65.9094, 14.2701)).json.data).toMatchObject({
      area: 'NO4',
      county: 'Nordland',
      note: expect.stringMatching(/southern Helgeland lies partly in NO3/),
    })
  })

  it('answers area null, without asking Statnett, for a point with no address near it', async () => {
    const before = statnettFake.requests.length
    const { status, json } = await priceArea(57.5, 3.1)
    expect(status).toBe(200)
    expect(json.data).toMatchObject({
      area: null,
      basis: 'none',
      power_situation: null,
      note: expect.stringMatching(/at sea, or outside Norway/),
    })
    expect(statnettFake.requests.length).toBe(before)
  })

  it('rejects coordinates out of bounds with a 400 naming them', async () => {
    const { status, json } = await priceArea(95, 10)
    expect(status).toBe(400)
    expect(json.error.details[0]).toMatchObject({ parameter: 'lat' })
  })
})
