import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { nve } from './index.js'
import { FAKE_HYDAPI_KEY, startFakeHydapi } from './testing/fake-hydapi.js'
import { startFakeVarsomAvalanche, startFakeVarsomHydro } from './testing/fake-varsom.js'

describe('nve and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming each Varsom API and HydAPI', async () => {
    const [flood, landslide, avalanche, kartverket, hydapi] = await Promise.all([
      startFakeVarsomHydro('flood'),
      startFakeVarsomHydro('landslide'),
      startFakeVarsomAvalanche(),
      startFakeKartverketAdresser(),
      startFakeHydapi(),
    ])
    try {
      // With a HydAPI key, as a deployment that has one.
      const report = await checkSource(() => nve({ hydapiKey: FAKE_HYDAPI_KEY }), {
        upstreams: {
          nve_flood: flood,
          nve_landslide: landslide,
          nve_avalanche: avalanche,
          kartverket_adresser: kartverket,
          nve_hydapi: hydapi,
        },
        // A place-field operation is checked with points; by county and municipality in nve.test.ts.
        examples: {
          get_warnings: [
            { lat: 60.3976, lon: 5.3232, date: '2026-01-14' },
            { lat: 65.9094, lon: 14.2701 },
          ],
          find_hydro_stations: [
            { lat: 59.91, lon: 10.75, radius_km: 20, has_recent_data: true, limit: 100 },
            { lat: 59.91, lon: 10.75, has_recent_data: false },
          ],
        },
      })
      expect(report.operations).toEqual(['get_warnings', 'find_hydro_stations'])
      expect(report.passed).toContain('get_warnings: limit and offset page the list')
      expect(report.passed).toContain('find_hydro_stations: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([flood.close(), landslide.close(), avalanche.close(), kartverket.close(), hydapi.close()])
    }
  })
})
