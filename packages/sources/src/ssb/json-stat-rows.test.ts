import { describe, expect, it } from 'vitest'
import { jsonStatRows } from './json-stat-rows.js'
import type { JsonStat } from './ssb-payloads.js'

describe('jsonStatRows', () => {
  it('reads the other JSON-stat spellings: index as a list, a one-category dimension without index, sparse values and statuses', () => {
    const dataset: JsonStat = {
      class: 'dataset',
      id: ['Kjonn', 'ContentsCode', 'Tid'],
      size: [1, 1, 3],
      role: { metric: ['ContentsCode'] },
      dimension: {
        Kjonn: { label: 'kjønn', category: { label: { '0': 'Begge kjønn' } } },
        ContentsCode: {
          category: {
            index: ['Ledige'],
            label: { Ledige: 'Registrerte ledige' },
            unit: { Ledige: { base: 'prosent', decimals: 1 } },
          },
        },
        Tid: { category: { index: ['2024M01', '2024M02', '2024M03'] } },
      },
      value: { '0': 2.1, '2': 2.3 },
      status: { '1': '.' },
    }
    expect(jsonStatRows(dataset)).toEqual([
      {
        Kjonn: '0',
        Kjonn_label: 'Begge kjønn',
        ContentsCode: 'Ledige',
        ContentsCode_label: 'Registrerte ledige',
        Tid: '2024M01',
        Tid_label: '2024M01',
        value: 2.1,
        status: null,
        unit: 'prosent',
      },
      {
        Kjonn: '0',
        Kjonn_label: 'Begge kjønn',
        ContentsCode: 'Ledige',
        ContentsCode_label: 'Registrerte ledige',
        Tid: '2024M02',
        Tid_label: '2024M02',
        value: null,
        status: '.',
        unit: 'prosent',
      },
      {
        Kjonn: '0',
        Kjonn_label: 'Begge kjønn',
        ContentsCode: 'Ledige',
        ContentsCode_label: 'Registrerte ledige',
        Tid: '2024M03',
        Tid_label: '2024M03',
        value: 2.3,
        status: null,
        unit: 'prosent',
      },
    ])
  })
})
