import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { forskningsradetTildelingerForSelskap as operation } from './forskningsradet-tildelinger-for-selskap.js'
import { forskningsradetSoknader } from './datasets/forskningsradet-soknader.js'
import { soknaderRecords } from './testing/forskningsradet-fixtures.js'
import { createMemoryDatasets, type MemoryDatasets, datasetContext } from './testing/loaded-datasets.js'

// The in-memory store reads the file's records; that the import of @allmenning/datasets reads
// the same rows from the file's bytes (RFC 4180 quoting) is test/sources/firmafakta/datasets/fixture-records.test.ts.
let datasets: MemoryDatasets
beforeAll(async () => {
  datasets = createMemoryDatasets()
  const result = await datasets.load(
    forskningsradetSoknader,
    [{ file: 'dataset.csv', records: soknaderRecords() }],
    '2024-08-13',
  )
  expect(result).toMatchObject({ records: 4, rows: 4, malformed: 0 })
})
afterAll(() => datasets.close())

const run = (org_nr: string) =>
  operation.run(
    { org_nr, limit: 25, offset: 0 },
    datasetContext('forskningsradet_tildelinger_for_selskap', datasets.store),
  )

describe('forskningsradet_tildelinger_for_selskap', () => {
  it('lists granted projects newest first, a title with commas, quotes and a line break kept whole', async () => {
    const { data } = await run('912345645')
    expect(() => v.parse(operation.output, data)).not.toThrow()
    expect(data.prosjektansvarlig).toBe('FJORDVIK TEKNOLOGIRÅD')
    expect(data.antall).toBe(2)
    expect(data.sum_tildelt).toBe(15_200_001)
    expect(data.prosjekter.map((p) => [p.prosjektnummer, p.prosjektfase, p.tildelt_belop])).toEqual([
      ['245635', 'Bevilgning', 3_500_000.5],
      ['101367', 'Avsluttet', 11_700_000],
    ])
    expect(data.prosjekter[0]?.prosjekttittel).toBe('Teknologi, samfunn og "grønn" omstilling:\nen ny fase')
    expect(data.prosjekter[1]).toMatchObject({
      soknadsdato: '1994-12-16',
      prosjektstart: '1995-01-01',
      url: 'https://prosjektbanken.forskningsradet.no/project/FORISS/101367',
    })
    expect(data.note).toContain('Tibi')
  })

  it('leaves rejected applications and foreign organisations out', async () => {
    const { data } = await run('912345645')
    expect(data.prosjekter.map((p) => p.prosjektnummer)).not.toContain('300001')
    expect((await run('974760843')).data).toMatchObject({
      antall: 0,
      sum_tildelt: 0,
      prosjekter: [],
      prosjektansvarlig: null,
    })
  })
})
