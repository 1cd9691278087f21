import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { ssb } from './index.js'
import { startFakeSsb } from './testing/fake-ssb.js'

describe('ssb and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming SSB, entity search', async () => {
    const fake = await startFakeSsb()
    try {
      const report = await checkSource(ssb, {
        upstreams: { ssb: fake },
        examples: {
          search_tables: { query: 'befolkningsframskriving' },
          get_table_metadata: { table_id: '91234' },
          get_table_data: { table_id: '91234', selection: 'Region:*;ContentsCode:*;Tid:*' },
        },
        search: 'folkemengde',
      })
      expect(report.operations).toEqual(['search_tables', 'get_table_metadata', 'get_table_data'])
      expect(report.passed).toContain('search_tables: limit and offset page the list')
      expect(report.passed).toContain('get_table_data: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
