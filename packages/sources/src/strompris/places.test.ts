import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type FakeUpstream } from '@allmenning/core/testing'
import { startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { statnett } from '../statnett/index.js'
import { startFakeStatnett } from '../statnett/testing/fake-statnett.js'
import { strompris } from './index.js'
import { osloDate } from '../shared/oslo-time.js'
import { startFakeHvakosterstrommen } from './testing/fake-hvakosterstrommen.js'

let fakes: FakeUpstream[]
beforeAll(async () => {
  fakes = await Promise.all([startFakeHvakosterstrommen(), startFakeKartverketAdresser(), startFakeStatnett()])
})
afterAll(() => Promise.all(fakes.map((f) => f.close())))

describe('the energy section of /api/v1/steder/{lat}/{lon}', () => {
  it("answers the point's price area and today's electricity price there, agreeing on the area", async () => {
    const [prices, kartverket, grid] = fakes as [FakeUpstream, FakeUpstream, FakeUpstream]
    const gateway = createTestGateway({
      sources: [statnett(), strompris()],
      upstreams: { hvakosterstrommen: prices, kartverket_adresser: kartverket, statnett: grid },
    })
    const { status, json } = await gateway.get('/api/v1/steder/59.9129/10.7563', { section: 'energy' })
    expect(status).toBe(200)
    expect(Object.keys(json.fields)).toEqual(['price_area', 'electricity_price'])
    const price = json.fields.electricity_price
    expect([price.status, price.section, price.source, price.operation]).toEqual([
      'ok',
      'energy',
      'strompris',
      'get_prices_at_point',
    ])
    expect(price.data).toMatchObject({
      area: json.fields.price_area.data.area,
      date: osloDate(Date.now()),
      vat_included: false,
    })
    expect(price.data.price_now.NOK_per_kWh).toEqual(expect.any(Number))
    expect(price.attribution).toContainEqual(
      expect.objectContaining({
        upstream: 'hvakosterstrommen',
        publisher: expect.stringContaining('Strømpriser levert av Hva koster strømmen.no'),
      }),
    )
    expect(gateway.errors).toEqual([])
  })
})
