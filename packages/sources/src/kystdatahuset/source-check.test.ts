import { describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { kystdatahuset } from './index.js'
import { startFakeKystdatahuset } from './testing/fake-kystdatahuset.js'

describe('kystdatahuset and the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming Kystverket', async () => {
    const fake = await startFakeKystdatahuset()
    try {
      const report = await checkSource(kystdatahuset, {
        upstreams: { kystdatahuset: fake },
        examples: { find_ports_nearby: { lat: 59.9065, lon: 10.747 } },
      })
      expect(report.operations).toEqual(['find_ports_nearby'])
      expect(report.passed).toContain('find_ports_nearby: limit and offset page the list')
      expect(report.notes).toEqual([])
    } finally {
      await fake.close()
    }
  })
})
