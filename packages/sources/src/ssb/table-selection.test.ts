import { describe, expect, it } from 'vitest'
import { checkSelection } from './table-selection.js'
import type { TableMetadata } from './table-metadata.js'

const values = (codes: string[]) => codes.map((code) => ({ code, label: code, unit: null }))
const table: TableMetadata = {
  table_id: '91234',
  label: 'test',
  source: null,
  updated: null,
  notes: [],
  variables: [
    {
      code: 'Region',
      label: 'region',
      role: 'geo',
      elimination: true,
      value_count: 4,
      values: values(['0301', '0302', '4601', '5001']),
      codelists: [],
    },
    {
      code: 'ContentsCode',
      label: 'statistikkvariabel',
      role: 'metric',
      elimination: false,
      value_count: 2,
      values: values(['A', 'B']),
      codelists: [],
    },
    {
      code: 'Tid',
      label: 'år',
      role: 'time',
      elimination: false,
      value_count: 6,
      values: values(['2019', '2020', '2021', '2022', '2023', '2024']),
      codelists: [],
    },
  ],
}
const counts = (selection: string) => checkSelection(selection, table).variables.map((v) => [v.code, v.count])

describe('checkSelection', () => {
  it('counts each expression against the table’s values, a value selected twice once', () => {
    expect(counts('Region:030?,0301;ContentsCode:*;Tid:top(2)')).toEqual([
      ['Region', 2],
      ['ContentsCode', 2],
      ['Tid', 2],
    ])
    expect(counts('contentscode:A;Tid:bottom(2,1)')).toEqual([
      ['ContentsCode', 1],
      ['Tid', 2],
    ])
    expect(counts('ContentsCode:A;Tid:from(2022),to(2019)')).toEqual([
      ['ContentsCode', 1],
      ['Tid', 4],
    ])
    expect(counts('ContentsCode:A;Tid:range(2023,2020)')).toEqual([
      ['ContentsCode', 1],
      ['Tid', 4],
    ])
    expect(counts('ContentsCode:[A];Tid:top(10)')).toEqual([
      ['ContentsCode', 1],
      ['Tid', 6],
    ])
  })

  it('multiplies the counts, an eliminated variable counting one, and refuses past the limit', () => {
    expect(checkSelection('ContentsCode:*;Tid:*', table).cells).toBe(12)
    expect(() => checkSelection('Region:*;ContentsCode:*;Tid:*', table, 47)).toThrow(
      'selects 48 cells (Region 4 × ContentsCode 2 × Tid 6); at most 47 per call',
    )
  })

  it('refuses a variable named twice, an empty part and a malformed function', () => {
    expect(() => checkSelection('Tid:2024;tid:2023;ContentsCode:A', table)).toThrow('names Tid twice')
    expect(() => checkSelection('ContentsCode:A;Tid:', table)).toThrow('gives no values for Tid')
    expect(() => checkSelection('ContentsCode:A;Tid:range(2020)', table)).toThrow('range() two')
    expect(() => checkSelection(';;', table)).toThrow('at least one variable')
  })
})
