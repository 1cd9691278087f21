import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { nve } from './index.js'
import { startFakeVarsomAvalanche, startFakeVarsomHydro } from './testing/fake-varsom.js'

describe('nve and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming each Varsom API', async () => {
    const [flood, landslide, avalanche, kartverket] = await Promise.all([
      startFakeVarsomHydro('flood'),
      startFakeVarsomHydro('landslide'),
      startFakeVarsomAvalanche(),
      startFakeKartverketAdresser(),
    ])
    try {
      const report = await checkSource(nve, {
        upstreams: { nve_flood: flood, nve_landslide: landslide, nve_avalanche: avalanche, kartverket_adresser: kartverket },
        // A place-field operation is checked with points; by county and municipality in nve.test.ts.
        examples: { get_warnings: [{ lat: 60.3976, lon: 5.3232, date: '2026-01-14' }, { lat: 65.9094, lon: 14.2701 }] },
      })
      expect(report.operations).toEqual(['get_warnings'])
      expect(report.passed).toContain('get_warnings: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([flood.close(), landslide.close(), avalanche.close(), kartverket.close()])
    }
  })
})
