import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { mattilsynet } from './index.js'
import { startFakeMattilsynet } from './testing/fake-mattilsynet.js'
import { createMattilsynetDatasets } from './testing/loaded-datasets.js'

describe('mattilsynet and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, the place field', async () => {
    const fake = await startFakeMattilsynet()
    const datasets = createMattilsynetDatasets()
    try {
      // The demo's files are these fixtures (test/sources/mattilsynet/fixture-records.test.ts checks it).
      await datasets.loadSmilefjes()
      await datasets.loadAddressPoints()
      const report = await checkSource(() => mattilsynet(), {
        upstreams: { mattilsynet_data: fake },
        search: 'Pizzabakeren',
        datasets: datasets.store,
        examples: {
          search_establishments: [
            { poststed: 'Oslo', min_karakter: 0, limit: 100 },
            { kommune: '0301' },
            { query: 'pizza' },
            { postnr: '0153', since: '2024-01-01' },
          ],
          find_establishments_nearby: [
            { lat: 59.91, lon: 10.75 },
            { lat: 59.91, lon: 10.75, radius_km: 3, max_karakter: 1 },
          ],
        },
      })
      expect(report.operations).toEqual(['search_establishments', 'find_establishments_nearby'])
      expect(report.passed).toContain('search_establishments: limit and offset page the list')
      // Both read the loaded datasets only: the file is fetched by `allmenning datasets sync`, not by a request.
      expect(report.notes).toEqual([
        'find_establishments_nearby: answers without calling an upstream, so upstream failures do not reach it',
        'search_establishments: answers without calling an upstream, so upstream failures do not reach it',
      ])
    } finally {
      datasets.close()
      await fake.close()
    }
  })
})
