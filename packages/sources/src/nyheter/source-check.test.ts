import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { startFakeKommuneinfo } from '../shared/testing/fake-kommuneinfo.js'
import { nyheter } from './index.js'
import { startFakeNrk } from './testing/fake-nrk.js'
import { startFakePolitiloggen } from './testing/fake-politiloggen.js'
import { startFakeStedsnavn } from './testing/fake-stedsnavn.js'

describe('nyheter and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Politiloggen, NRK and Kartverket', async () => {
    const [politiloggen, nrk, stedsnavn, kommuneinfo] = await Promise.all([
      startFakePolitiloggen({ shiftToNow: true }),
      startFakeNrk({ shiftToNow: true }),
      startFakeStedsnavn(),
      startFakeKommuneinfo(),
    ])
    try {
      const report = await checkSource(() => nyheter(), {
        upstreams: { politiloggen, nrk_rss: nrk, kartverket_stedsnavn: stedsnavn, kartverket_kommuneinfo: kommuneinfo },
        examples: {
          search_news: [
            { lat: 59.91, lon: 10.75 },
            { lat: 59.91, lon: 10.75, radius_km: 20, limit: 100, source: 'politiloggen', category: 'Trafikk' },
            { lat: 59.91, lon: 10.75, municipality: '301' },
          ],
        },
      })
      expect(report.operations).toEqual(['search_news'])
      expect(report.passed).toContain('search_news: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await Promise.all([politiloggen.close(), nrk.close(), stedsnavn.close(), kommuneinfo.close()])
    }
  })
})
