import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import { firmafakta } from './index.js'
import { aksjeposterForPerson as operation } from './aksjeposter-for-person.js'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import {
  aksjonaerregisteret2021Records,
  aksjonaerregisteret2024Records,
} from './testing/aksjonaerregisteret-records.js'
import { createMemoryDatasets, type MemoryDatasets, datasetContext } from './testing/loaded-datasets.js'

let datasets: MemoryDatasets
beforeAll(async () => {
  datasets = createMemoryDatasets()
  await datasets.load(aksjonaerregisteret, [
    { file: 'aksjonaerregisteret.csv', records: aksjonaerregisteret2024Records() },
  ])
})
afterAll(() => datasets.close())

const context = (store = datasets.store) => datasetContext('aksjeposter_for_person', store)
const run = (name: string, birth_year: string, store = datasets.store) =>
  operation.run({ name, birth_year, limit: 25, offset: 0 }, context(store))

describe('aksjeposter_for_person', () => {
  it('finds a person by name in any order, case and accents, and birth year', async () => {
    const { data, page } = await run('Ola Nordmann', '1975')
    expect(() => v.parse(operation.output, data)).not.toThrow()
    expect(data.navn).toBe('NORDMANN OLA')
    expect(data.fodselsaar).toBe(1975)
    expect(data.aksjeposter.map((h) => [h.selskap, h.antall_aksjer, h.andel_prosent])).toEqual([
      ['SESAM HOLDING AS', 12_500, 62.5],
      ['SESAM AS', 150, 15],
    ])
    expect(page).toEqual({ hasMore: false, total: 2 })
    expect((await run('åse ødegård', '1962')).data.aksjeposter).toHaveLength(1)
    expect((await run('Ase Odegard', '1962')).data.aksjeposter).toHaveLength(1)
  })

  it('tells namesakes apart by birth year, and needs every word of the name', async () => {
    expect((await run('Ola Nordmann', '1980')).data.aksjeposter.map((h) => h.aksjeklasse)).toEqual(['B-aksjer'])
    expect((await run('Kari Hansen', '1981')).data.aksjeposter).toEqual([])
    expect((await run('Kari Elisabeth Hansen', '1981')).data.aksjeposter).toHaveLength(1)
    const none = await run('Ola Nordmann', '1999')
    expect(none.data.navn).toBeNull()
    expect(none.data.note).toContain('no shares owned by a person named Ola Nordmann born 1999')
  })

  it('reads an older extract with other header wording (its windows-1252 bytes: test/sources/firmafakta/datasets)', async () => {
    const older = createMemoryDatasets()
    try {
      const result = await older.load(
        aksjonaerregisteret,
        [{ file: 'aksjonaerregisteret.csv', records: aksjonaerregisteret2021Records() }],
        '2021-12-31',
      )
      expect(result).toMatchObject({ rows: 2, malformed: 0 })
      const { data } = await run('Åse Ødegård', '1962', older.store)
      expect(data.navn).toBe('ØDEGÅRD ÅSE')
      expect(data.aksjeposter).toEqual([
        {
          organisasjonsnummer: '976030788',
          selskap: 'SESAM AS',
          aksjeklasse: 'Ordinære aksjer',
          antall_aksjer: 80,
          antall_aksjer_selskap: 800,
          andel_prosent: 10,
        },
      ])
      expect(data.note).toContain('as published 2021-12-31')
    } finally {
      older.close()
    }
  })

  it.each([
    ['name=O&birth_year=1975', 'name', 'min_length'],
    [`name=${'a'.repeat(101)}&birth_year=1975`, 'name', 'max_length'],
    ['name=Ola%20Nordmann&birth_year=75', 'birth_year', 'length'],
    ['name=Ola%20Nordmann&birth_year=19x5', 'birth_year', 'regex'],
    ['name=Ola%20Nordmann', 'birth_year', 'required'],
  ])('rejects %s with a 400 naming %s', async (query, parameter, rule) => {
    const gateway = createGateway({ sources: [firmafakta()], datasets: datasets.store })
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/kilder/firmafakta/aksjeposter_for_person',
      query,
      headers: {},
    })
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body!).error.details[0]).toMatchObject({ parameter, rule })
  })
})
