import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { euTildelingerForSelskap as operation } from './eu-tildelinger-for-selskap.js'
import { cordis } from './datasets/cordis.js'
import { orgNrFromVat } from './datasets/cordis-reader.js'
import { type CordisRecords, h2020Records, horizonRecords } from './testing/cordis-records.js'
import { createMemoryDatasets, type MemoryDatasets, datasetContext } from './testing/loaded-datasets.js'

// The in-memory store reads the file's records; that the import of @allmenning/datasets reads
// the same rows from the file's bytes (two zips of quoted CSV) is test/sources/firmafakta/datasets/fixture-records.test.ts.
let datasets: MemoryDatasets
beforeAll(async () => {
  datasets = createMemoryDatasets()
  // The records of each zip's two members, as the import reads them from the zips.
  const members = (file: string, records: CordisRecords) =>
    (['project.csv', 'organization.csv'] as const).map((member) => ({ file, member, records: records[member] }))
  const result = await datasets.load(cordis, [
    ...members('cordis-HORIZONprojects-csv.zip', horizonRecords()),
    ...members('cordis-h2020projects-csv.zip', h2020Records()),
  ])
  // Two projects, three Norwegian participations; the German one is not kept.
  expect(result).toMatchObject({ records: 6, rows: 5, malformed: 0 })
})
afterAll(() => datasets.close())

const run = (org_nr: string) =>
  operation.run({ org_nr, limit: 25, offset: 0 }, datasetContext('eu_tildelinger_for_selskap', datasets.store))

describe('eu_tildelinger_for_selskap', () => {
  it('finds participations by VAT number and, without one, by the PIC the organisation uses', async () => {
    const { data } = await run('974760843')
    expect(() => v.parse(operation.output, data)).not.toThrow()
    expect(data.navn).toBe('NORGES TEKNISK-NATURVITENSKAPELIGE UNIVERSITET NTNU')
    expect(data.prosjekter.map((p) => [p.prosjekt_id, p.rammeprogram, p.rolle, p.eu_bidrag])).toEqual([
      ['101056765', 'HORIZON', 'coordinator', 1_250_000.5],
      ['820001', 'H2020', 'participant', 400_000.25],
    ])
    expect(data.sum_eu_bidrag).toBe(1_650_000.75)
    expect(data.prosjekter[0]).toMatchObject({
      tittel: 'Green "blue" seas; a test',
      start: '2023-01-01',
      url: 'https://cordis.europa.eu/project/id/101056765',
    })
  })

  it('reads decimal commas and answers an empty list for an organisation without EU projects', async () => {
    const { data } = await run('912346234')
    expect(data.prosjekter).toEqual([
      expect.objectContaining({
        prosjekt_id: '820001',
        rolle: 'coordinator',
        eu_bidrag: 1_000_000,
        prosjekt_total_kostnad: 2_000_000,
      }),
    ])
    expect((await run('923609016')).data).toMatchObject({ antall: 0, sum_eu_bidrag: 0, prosjekter: [], navn: null })
  })

  it.each([
    ['NO974760843MVA', '974760843'],
    ['NO 974 760 843 MVA', '974760843'],
    ['no974760843', '974760843'],
    ['DE123456789', null],
    ['', null],
  ])('reads the organisation number in VAT number %j', (vat, orgNr) => {
    expect(orgNrFromVat(vat)).toBe(orgNr)
  })
})
