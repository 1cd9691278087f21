import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, GatewayError } from '@allmenning/core'
import { firmafakta } from './index.js'
import { aksjeeiereForSelskap as operation } from './aksjeeiere-for-selskap.js'
import { aksjonaerregisteret } from './datasets/aksjonaerregisteret.js'
import { aksjonaerregisteret2024Records, fixtureCompany } from './testing/aksjonaerregisteret-records.js'
import { createMemoryDatasets, type MemoryDatasets, datasetContext } from './testing/loaded-datasets.js'

let datasets: MemoryDatasets
beforeAll(async () => {
  datasets = createMemoryDatasets()
  await datasets.load(aksjonaerregisteret, [
    { file: 'aksjonaerregisteret.csv', records: aksjonaerregisteret2024Records() },
  ])
})
afterAll(() => datasets.close())

const context = (store = datasets.store) => datasetContext('aksjeeiere_for_selskap', store)

describe('aksjeeiere_for_selskap', () => {
  it('lists the shareholders largest first, duplicates summed, quirks of the file undone', async () => {
    const { data, page } = await operation.run({ org_nr: fixtureCompany, limit: 100, offset: 0 }, context())
    expect(() => v.parse(operation.output, data)).not.toThrow()
    expect(data.organisasjonsnummer).toBe(fixtureCompany)
    expect(data.selskap).toBe('SESAM AS')
    expect(data.note).toMatch(
      /^From Skatteetaten's Aksjonærregisteret as published 2024-12-31 \(loaded \d{4}-\d{2}-\d{2}\)\. 6 holdings in all, largest first/,
    )
    expect(data.shareholders.map((s) => [s.navn, s.antall_aksjer, s.andel_prosent])).toEqual([
      ['SESAM HOLDING AS', 600, 60],
      ['NORDMANN OLA', 150, 15],
      ['ØDEGÅRD ÅSE', 100, 10],
      ['VIMLE AB', 60, 6],
      ['"NORRSKEN MUTUAL HOLDING LTD (PUBL', 30, 3],
      ['NORDMANN OLA', 10, 20],
    ])
    expect(data.shareholders[0]).toEqual({
      navn: 'SESAM HOLDING AS',
      type: 'selskap',
      organisasjonsnummer: '912346234',
      fodselsaar: null,
      postnr_sted: '7010 TRONDHEIM',
      landkode: 'NO',
      aksjeklasse: 'Ordinære aksjer',
      antall_aksjer: 600,
      andel_prosent: 60,
    })
    expect(data.shareholders[1]).toMatchObject({ type: 'person', organisasjonsnummer: null, fodselsaar: 1975 })
    expect(data.shareholders[3]).toMatchObject({
      type: 'ukjent',
      postnr_sted: 'S-41, Ljungby; Sverige',
      landkode: 'SE',
    })
    expect(page).toEqual({ hasMore: false, total: 6 })
  })

  it('pages in the store: limit and offset, with the total', async () => {
    const first = await operation.run({ org_nr: fixtureCompany, limit: 2, offset: 0 }, context())
    const second = await operation.run({ org_nr: fixtureCompany, limit: 2, offset: 2 }, context())
    expect(first.data.shareholders.map((s) => s.navn)).toEqual(['SESAM HOLDING AS', 'NORDMANN OLA'])
    expect(first.page).toEqual({ hasMore: true, total: 6 })
    expect(second.data.shareholders.map((s) => s.navn)).toEqual(['ØDEGÅRD ÅSE', 'VIMLE AB'])
  })

  it('says so when the register has no shareholders of the company', async () => {
    const { data, page } = await operation.run({ org_nr: '974760843', limit: 100, offset: 0 }, context())
    expect(data.shareholders).toEqual([])
    expect(data.selskap).toBeNull()
    expect(data.note).toContain('The register lists no shareholders of 974760843')
    expect(page).toEqual({ hasMore: false, total: 0 })
  })

  it('is a 502 naming the import command when the register is not loaded', async () => {
    const empty = createMemoryDatasets()
    try {
      const error = await operation
        .run({ org_nr: fixtureCompany, limit: 100, offset: 0 }, context(empty.store))
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(GatewayError)
      expect(error).toMatchObject({ status: 502, code: 'dataset_not_loaded' })
      expect((error as Error).message).toContain('npx allmenning datasets import aksjonaerregisteret <file>')
    } finally {
      empty.close()
    }
  })
})

describe('aksjeeiere_for_selskap through the gateway', () => {
  const call = async (query: string) => {
    const gateway = createGateway({ sources: [firmafakta()], datasets: datasets.store, onError: () => {} })
    const res = await gateway.handle({
      method: 'GET',
      path: '/api/v1/kilder/firmafakta/aksjeeiere_for_selskap',
      query,
      headers: {},
    })
    return { status: res.status, json: JSON.parse(res.body!) }
  }

  it('answers the spec shape with paging, entities, the version that answered and its licence', async () => {
    const { status, json } = await call(`org_nr=${fixtureCompany}&limit=2`)
    expect(status).toBe(200)
    expect(json.parameters).toEqual({ org_nr: fixtureCompany, limit: 2, offset: 0 })
    expect(Object.keys(json.data)).toEqual([
      'note',
      'organisasjonsnummer',
      'selskap',
      'shareholders',
      'has_more_results',
    ])
    expect(json.data.has_more_results).toBe(true)
    expect(json._meta.pagination).toEqual({
      limit: 2,
      offset: 0,
      returned: 2,
      has_more_results: true,
      next_offset: 2,
      total: 6,
    })
    expect(json._meta.datasets).toEqual([
      expect.objectContaining({
        id: 'aksjonaerregisteret',
        publisher: 'Skatteetaten',
        license: 'NLOD 2.0',
        published_at: '2024-12-31',
        rows: 9,
        changes: 'yearly',
      }),
    ])
    expect(json._provenance.data).toMatchObject({
      source: 'Skatteetaten',
      source_api: 'https://www.skatteetaten.no/deling/aksjonarregisteret/',
    })
    expect(json._provenance.data.description).toContain('NLOD')
    expect(json.entities).toEqual([
      {
        type: 'organization',
        id: fixtureCompany,
        name: 'SESAM AS',
        source: 'firmafakta',
        _links: { self: `/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=${fixtureCompany}` },
      },
      {
        type: 'organization',
        id: '912346234',
        name: 'SESAM HOLDING AS',
        source: 'firmafakta',
        _links: { self: '/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=912346234' },
      },
      {
        type: 'shareholder',
        id: 'nordmann-ola-1975',
        name: 'NORDMANN OLA',
        source: 'firmafakta',
        _links: { self: '/api/v1/kilder/firmafakta/aksjeposter_for_person?name=NORDMANN%20OLA&birth_year=1975' },
      },
    ])
  })

  it.each([
    ['org_nr=12345678', 'length'],
    ['org_nr=976030789', 'check'],
    [`org_nr=${fixtureCompany}&limit=1001`, 'max_value'],
    [`org_nr=${fixtureCompany}&limit=0`, 'min_value'],
  ])('rejects %s with a 400 naming the rule', async (query, rule) => {
    const { status, json } = await call(query)
    expect(status).toBe(400)
    expect(json.error.details[0].rule).toBe(rule)
  })

  it('takes up to 1000 shareholders a page and 100 by default', async () => {
    expect((await call(`org_nr=${fixtureCompany}&limit=1000`)).status).toBe(200)
    expect((await call(`org_nr=${fixtureCompany}`)).json.parameters.limit).toBe(100)
  })
})
