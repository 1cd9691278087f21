import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { geonorge } from './index.js'
import { startFakeKartverketAdresser, startFakeKartverketStedsnavn } from './testing/fake-kartverket.js'

describe('geonorge and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Kartverket, entity search', async () => {
    const [adresser, stedsnavn] = await Promise.all([startFakeKartverketAdresser(), startFakeKartverketStedsnavn()])
    try {
      const report = await checkSource(geonorge, {
        upstreams: { kartverket_adresser: adresser, kartverket_stedsnavn: stedsnavn },
        examples: {
          search_address: { text: 'Robert Levins gate' },
          search_place_name: { text: 'Heggmo' },
          find_addresses_nearby: { lat: 59.91196, lon: 10.73364, radius: 500 },
          find_place_names_nearby: { lat: 59.91196, lon: 10.73364 },
        },
        search: 'Heggmoen',
      })
      expect(report.operations).toEqual([
        'search_address',
        'search_place_name',
        'find_addresses_nearby',
        'find_place_names_nearby',
      ])
      expect(report.passed).toContain('search_address: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([adresser.close(), stedsnavn.close()])
    }
  })
})
