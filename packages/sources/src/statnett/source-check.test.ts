import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { startFakeStatnett } from './testing/fake-statnett.js'
import { statnett } from './index.js'

describe('statnett and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Statnett, entity search', async () => {
    const fake = await startFakeStatnett()
    // get_price_area finds a point's county through Kartverket's address API.
    const kartverket = await startFakeKartverketAdresser()
    const report = await checkSource(statnett, {
      upstreams: { statnett: fake, kartverket_adresser: kartverket },
      examples: { get_price_area: { lat: 59.9129, lon: 10.7563 } },
      search: 'Oslo',
    }).finally(() => Promise.all([fake.close(), kartverket.close()]))
    expect(report.operations).toEqual([
      'get_physical_flow',
      'get_production_consumption',
      'get_power_situation',
      'get_price_area',
    ])
    expect(report.passed).toContain('get_physical_flow: limit and offset page the list')
    expect(report.passed).toContain('get_power_situation: when its upstream drops the connection, a 502 naming it')
    expect(report.notes).toEqual([])
  })
})
