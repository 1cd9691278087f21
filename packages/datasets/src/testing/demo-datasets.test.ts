import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadOperations } from '@allmenning/core/source'
import { createTestGateway, type TestGateway } from '@allmenning/core/testing'
import { builtInDatasets, builtInSources } from '@allmenning/sources'
import { loadDemoDatasets, type DemoDatasets } from './demo-datasets.js'

interface StandardSchemaV1 {
  '~standard': { validate(value: unknown): { issues?: unknown } | Promise<{ issues?: unknown }> }
}

// The documented examples (docs/sources.md, the operations' JSDoc, the source checks) of every
// operation that reads a dataset. Upstreams are not played: these operations call none.
const examples: Record<string, Record<string, Array<Record<string, string>>>> = {
  firmafakta: {
    personinformasjon: [{ person_name: 'Ola Nordmann' }],
    aksjeeiere_for_selskap: [{ org_nr: '923609016' }, { org_nr: '976030788' }],
    selskapets_aksjeposter: [{ org_nr: '923609016' }, { org_nr: '912346234' }],
    aksjeposter_for_person: [{ name: 'Ola Nordmann', birth_year: '1975' }],
    tildelinger_for_selskap: [{ org_nr: '976030788' }],
    eu_tildelinger_for_selskap: [{ org_nr: '974760843' }],
    forskningsradet_tildelinger_for_selskap: [{ org_nr: '912345645' }],
    skattefunnprosjekter_for_selskap: [{ org_nr: '976030788' }],
  },
  lovdata: {
    search_rules: [
      { query: 'straffeloven' },
      { query: 'aksjeloven' },
      { query: 'radon' },
      { query: 'forvaltningsloven', source: 'laws' },
      { query: 'TEK17', source: 'regulations' },
    ],
    get_rule: [
      { document_id: 'NL/lov/2005-05-20-28' },
      { document_id: 'LOV-2005-05-20-28' },
      { document_id: 'lov/2005-05-20-28', full_text: 'yes' },
    ],
    get_section: [
      { document_id: 'NL/lov/2005-05-20-28', section: '5a' },
      { document_id: 'lov/2005-05-20-28', section: '§ 5a' },
    ],
  },
  mattilsynet: {
    search_establishments: [
      { poststed: 'Oslo', min_karakter: '0', limit: '100' },
      { kommune: '0301' },
      { kommune: '301' },
      { kommune: 'Oslo' },
      { query: 'pizza' },
    ],
    find_establishments_nearby: [{ lat: '59.91', lon: '10.75' }],
  },
  // With udir_enheter loaded these call no upstream (a municipality given by name would ask Kartverket).
  utdanning: {
    search_schools: [
      { kommunenr: '0301' },
      { kommunenr: '301' },
      { fylkenr: '03' },
      { kommunenr: '0301', limit: '100', offset: '0' },
    ],
    search_kindergartens: [{ kommunenr: '0301' }, { fylkenr: '3' }, { kommunenr: '0301', privat: 'true' }],
    get_unit: [{ organization_id: '971200006' }, { organization_id: '988300012' }],
    find_schools_nearby: [
      { lat: '59.91', lon: '10.75' },
      { lat: '59.91', lon: '10.75', radius_km: '5' },
    ],
  },
}

let demo: DemoDatasets
let gateway: TestGateway
const sources = builtInSources()

beforeAll(async () => {
  demo = await loadDemoDatasets()
  gateway = createTestGateway({ sources, datasets: demo.store })
}, 60_000)
afterAll(() => demo?.close())

describe('loadDemoDatasets', () => {
  it('loads every built-in dataset, each with rows, quickly', async () => {
    expect(demo.loaded.map((result) => result.dataset).sort()).toEqual(
      builtInDatasets.map((dataset) => dataset.id).sort(),
    )
    for (const result of demo.loaded) expect(result.rows, result.dataset).toBeGreaterThan(0)
    expect([...demo.store.loadedDatasets().keys()].sort()).toEqual(builtInDatasets.map((dataset) => dataset.id).sort())
    // Measured at 1–4 s on two busy cores (modules loaded in that time too); the bound leaves room.
    expect(demo.elapsedMs).toBeLessThan(20_000)
  })

  it('has an example here for every operation of the built-in sources that reads a dataset', async () => {
    const readers: string[] = []
    for (const source of sources) {
      for (const operation of await loadOperations(source)) {
        if ((operation.datasets ?? source.datasets ?? []).length > 0) readers.push(`${source.id}/${operation.name}`)
      }
    }
    expect(readers.sort()).toEqual(
      Object.entries(examples)
        .flatMap(([source, ops]) => Object.keys(ops).map((op) => `${source}/${op}`))
        .sort(),
    )
  })

  for (const [sourceId, operations] of Object.entries(examples)) {
    for (const [name, calls] of Object.entries(operations)) {
      it(`${sourceId}/${name}: 200 with data of its shape, not empty, for each documented example`, async () => {
        const source = sources.find((s) => s.id === sourceId)!
        const operation = (await loadOperations(source)).find((op) => op.name === name)!
        for (const query of calls) {
          const { status, json } = await gateway.call(sourceId, name, query)
          expect(status, `${name} ${JSON.stringify(query)}: ${JSON.stringify(json)}`).toBe(200)
          // The output schema is a Standard Schema (valibot's, which this package does not depend on).
          const checked = await (operation.output as StandardSchemaV1)['~standard'].validate(json.data)
          expect(checked.issues, name).toBeUndefined()
          const rows = Array.isArray(json.data)
            ? json.data
            : operation.list
              ? json.data[operation.list]
              : Object.keys(json.data)
          expect(rows.length, `${name} ${JSON.stringify(query)}`).toBeGreaterThan(0)
        }
      })
    }
  }

  it('answers the documented examples with what the fixtures hold', async () => {
    const owners = (await gateway.call('firmafakta', 'aksjeeiere_for_selskap', { org_nr: '923609016' })).json.data
    expect(owners.shareholders[0]).toMatchObject({
      navn: 'STATEN V/NÆRINGS- OG FISKERIDEPARTEMENTET',
      andel_prosent: 67,
    })
    const rules = (await gateway.call('lovdata', 'search_rules', { query: 'straffeloven' })).json.data
    expect(rules.hits[0].document_id).toBe('NL/lov/2005-05-20-28')
    const section = (
      await gateway.call('lovdata', 'get_section', { document_id: 'NL/lov/2005-05-20-28', section: '5a' })
    ).json.data
    expect(section.section).toBe('5a')
    expect(gateway.errors).toEqual([])
  })
})
