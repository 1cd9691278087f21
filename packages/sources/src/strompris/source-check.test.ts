import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { strompris } from './index.js'
import { startFakeHvakosterstrommen } from './testing/fake-hvakosterstrommen.js'

describe('strompris and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming hvakosterstrommen.no, entity search', async () => {
    const [prices, kartverket] = await Promise.all([startFakeHvakosterstrommen(), startFakeKartverketAdresser()])
    try {
      const report = await checkSource(strompris, {
        upstreams: { hvakosterstrommen: prices, kartverket_adresser: kartverket },
        examples: {
          get_prices: [
            { area: 'NO5', date: '2025-11-12' },
            { area: 'NO1', date: '2025-03-30' },
          ],
          get_price_range: { area: 'NO1', start_date: '2025-03-29', end_date: '2025-03-31' },
          get_prices_at_point: { lat: 59.9129, lon: 10.7563 },
        },
        search: 'Bergen',
      })
      expect(report.operations).toEqual(['get_prices', 'get_price_range', 'get_prices_at_point'])
      expect(report.passed).toContain(
        'get_prices: when its upstream answers an HTML maintenance page with status 200, a 502 naming it',
      )
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([prices.close(), kartverket.close()])
    }
  })
})
