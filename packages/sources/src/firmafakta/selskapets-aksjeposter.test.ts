import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { selskapetsAksjeposter as operation } from './selskapets-aksjeposter.js'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import { aksjonaerregisteret2024Records, fixtureOwnerCompany } from './testing/aksjonaerregisteret-records.js'
import { createMemoryDatasets, type MemoryDatasets, datasetContext } from './testing/loaded-datasets.js'

let datasets: MemoryDatasets
beforeAll(async () => {
  datasets = createMemoryDatasets()
  await datasets.load(aksjonaerregisteret, [
    { file: 'aksjonaerregisteret.csv', records: aksjonaerregisteret2024Records() },
  ])
})
afterAll(() => datasets.close())

const context = () => datasetContext('selskapets_aksjeposter', datasets.store)

describe('selskapets_aksjeposter', () => {
  it('lists what the company owns, largest holding first, with its share of each class', async () => {
    const { data, page } = await operation.run({ org_nr: fixtureOwnerCompany, limit: 25, offset: 0 }, context())
    expect(() => v.parse(operation.output, data)).not.toThrow()
    expect(data.aksjeposter).toEqual([
      {
        organisasjonsnummer: '923609016',
        selskap: 'EQUINOR ASA',
        aksjeklasse: 'Ordinære aksjer',
        antall_aksjer: 1000,
        antall_aksjer_selskap: 3_000_000_000,
        andel_prosent: 0,
      },
      {
        organisasjonsnummer: '976030788',
        selskap: 'SESAM AS',
        aksjeklasse: 'Ordinære aksjer',
        antall_aksjer: 600,
        antall_aksjer_selskap: 1000,
        andel_prosent: 60,
      },
    ])
    expect(page).toEqual({ hasMore: false, total: 2 })
    expect(data.note).toContain('2 holdings in all')
  })

  it('finds a foreign company by the number the register gives it, and says when a company owns nothing', async () => {
    const { data } = await operation.run({ org_nr: '917654321', limit: 25, offset: 0 }, context())
    expect(data.aksjeposter.map((h) => h.selskap)).toEqual(['SESAM AS'])
    const none = await operation.run({ org_nr: '974760843', limit: 25, offset: 0 }, context())
    expect(none.data.aksjeposter).toEqual([])
    expect(none.data.note).toContain('no shares owned by 974760843')
  })
})
