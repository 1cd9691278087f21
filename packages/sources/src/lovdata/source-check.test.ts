import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkSource } from '@allmenning/core/testing'
import { lovdata } from './index.js'
import { startFakeDomstol, type FakeDomstol } from './testing/fake-domstol.js'
import { startFakeLovdata } from './testing/fake-lovdata.js'
import { loadRuleDatasets } from './testing/loaded-rule-datasets.js'

// The source check calls every operation, the three that read the rule datasets too: those
// answer from the rule archives loaded into the in-memory dataset store.

let fake: FakeDomstol
const now = () => new Date('2026-09-25T12:00:00Z')

beforeAll(async () => {
  fake = await startFakeDomstol()
})
afterAll(() => fake.close())

describe('the source check of @allmenning/core/testing', () => {
  it('passes: descriptor, schemas, OpenAPI, envelopes, paging, shared 400s, 502s naming domstol.no, entity search', async () => {
    const publicData = await startFakeLovdata()
    const rules = await loadRuleDatasets()
    try {
      const report = await checkSource(() => lovdata({ now }), {
        upstreams: { domstol: fake, lovdata: publicData },
        datasets: rules.store,
        examples: {
          search_rules: { query: 'straffeloven' },
          get_rule: { document_id: 'LOV-2005-05-20-28' },
          get_section: { document_id: 'lov/2005-05-20-28', section: '§ 5a' },
          list_case_law: { year: 2025 },
          get_case_law: { ref: 'HR-2025-844-A' },
          search_case_law: { query: 'Høyesterett' },
        },
        search: 'HR-2025-844-A',
      })
      expect(report.operations).toEqual([
        'search_rules',
        'get_rule',
        'get_section',
        'search_case_law',
        'list_case_law',
        'get_case_law',
      ])
      expect(report.passed).toContain('list_case_law: limit and offset page the list')
      // The rules operations read the dataset store only; no upstream failure can reach them.
      expect(report.notes).toEqual(
        ['get_rule', 'get_section', 'search_rules'].map(
          (op) => `${op}: answers without calling an upstream, so upstream failures do not reach it`,
        ),
      )
    } finally {
      rules.close()
      await publicData.close()
    }
  })
})
