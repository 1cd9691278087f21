import { upstreamEnvironmentVariable } from '@allmenning/core'
import { defineDataset, type DatasetDefinition } from '@allmenning/core/source'
import { describe, expect, it } from 'vitest'
import { duration } from '../cli/progress-reporter.js'
import { datasetLoadCommand } from '../store/load-command.js'
import { syncOrder, upstreamVariable } from './derive-dataset.js'

const table = [{ name: 'rows', columns: { a: 'text' as const } }]
const file = (name: string) => ({
  name,
  url: `https://example.no/${name}`,
  content: { format: { type: 'delimited' as const, delimiter: ';', quoting: 'none' as const }, rows: () => () => null },
})
const base = {
  title: 'T',
  description: 'D',
  publisher: 'P',
  license: 'NLOD 2.0',
  attribution: 'A',
  changes: 'daily' as const,
  tables: table,
}
const downloaded = (id: string): DatasetDefinition =>
  defineDataset({ ...base, id, origin: { kind: 'download', page: 'https://example.no' }, files: [file(`${id}.csv`)] })
const derived = (id: string, from: string[]): DatasetDefinition =>
  defineDataset({
    ...base,
    id,
    files: [file(`${id}.csv`)],
    origin: {
      kind: 'derived',
      page: 'https://example.no/api',
      from,
      action: 'placing',
      budget: 10,
      requestsPerSecond: 10,
      upstreams: [{ id: 'api', name: 'API', baseUrl: 'https://example.no/api', publisher: 'P' }],
      derive: async () => ({ files: [], summary: '', remaining: 0 }),
    },
  })
const ordered = defineDataset({
  ...base,
  id: 'ordered',
  origin: { kind: 'order', page: 'https://example.no', instructions: 'Ask.' },
  files: [file('o.csv')],
})

describe('what sync brings forward, and in which order', () => {
  // Listed before what they are made from, to show the order is sync's, not the catalog's.
  const catalog = [
    derived('points_of_points', ['points']),
    derived('points', ['register']),
    downloaded('register'),
    downloaded('other'),
    ordered,
  ]

  it('everything but the ordered datasets without ids, each derived one after what it is made from', () => {
    expect(syncOrder(catalog).map((d) => d.id)).toEqual(['register', 'points', 'points_of_points', 'other'])
  })

  it('a named dataset and the datasets derived from it; a derived one named alone runs alone', () => {
    expect(syncOrder(catalog, ['register']).map((d) => d.id)).toEqual(['register', 'points', 'points_of_points'])
    expect(syncOrder(catalog, ['points_of_points']).map((d) => d.id)).toEqual(['points_of_points'])
    expect(syncOrder(catalog, ['other']).map((d) => d.id)).toEqual(['other'])
  })

  it('refuses datasets derived from each other in a circle', () => {
    expect(() => syncOrder([derived('a', ['b']), derived('b', ['a'])])).toThrow(/derived in a circle: a → b → a/)
  })

  it('points a run at ALLMENNING_UPSTREAM_<ID>, the variable that points the gateway at another base URL', () => {
    expect(upstreamVariable('kartverket_adresser')).toBe(upstreamEnvironmentVariable('kartverket_adresser'))
  })

  it('names sync as the command that loads a derived dataset', () => {
    expect(datasetLoadCommand(catalog[1]!)).toBe('npx allmenning datasets sync points')
  })

  it("says how long a run takes: Norway's ~48,000 establishments at 10 requests a second", () => {
    expect(duration(5000 / 10)).toBe('8 min 20 s')
    expect(duration(48_000 / 10)).toBe('1 h 20 min')
    expect(duration(0.4)).toBe('1 s')
  })
})
