import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import {
  datasetFileContent,
  defineDataset,
  defineOperation,
  defineSource,
  defineUpstream,
  type DatasetReader,
  type DatasetDefinition,
} from '@allmenning/core/source'
import type { DatasetStore } from '@allmenning/core/extension'

const grants = defineDataset({
  id: 'grants',
  title: 'Example grants',
  description: 'Grants by organisation.',
  publisher: 'Example Agency',
  license: 'NLOD 2.0',
  attribution: 'Contains data from Example Agency under NLOD 2.0.',
  origin: { kind: 'download', page: 'https://example.no/grants' },
  changes: 'daily',
  tables: [{ name: 'grants', columns: { org_nr: 'text', amount: 'real' }, indexes: [['org_nr']] }],
  files: [
    {
      name: 'grants.csv',
      url: 'https://example.no/grants.csv',
      content: {
        format: { type: 'delimited', delimiter: ';', quoting: 'none' },
        rows: () => (cells) => ({ table: 'grants', row: { org_nr: cells[0] ?? null, amount: Number(cells[1]) } }),
      },
    },
  ],
})

const ordered = defineDataset({
  ...grants,
  id: 'ordered',
  title: 'Ordered register',
  origin: { kind: 'order', page: 'https://example.no/order', instructions: 'Order it by e-mail.' },
})

function operationOn(dataset: DatasetDefinition, name: string) {
  return defineOperation({
    name,
    description: 'Grants of one organisation.',
    parameters: { org_nr: v.string() },
    output: v.array(v.object({ org_nr: v.string(), amount: v.number() })),
    async run(params, ctx) {
      const rows = await ctx
        .dataset(dataset)
        .select<{ org_nr: string; amount: number }>('grants', { where: { org_nr: params.org_nr } })
      return { data: rows }
    },
  })
}

const source = defineSource({
  id: 'example',
  name: 'Example',
  description: 'An example source on datasets.',
  documentation: 'https://example.no/',
  topic: 'business',
  keywords: ['grants'],
  contentLanguages: ['no'],
  cacheTtlSeconds: 60,
  upstreams: [
    defineUpstream({ id: 'example', name: 'Example', baseUrl: 'https://example.no', publisher: 'Example Source' }),
  ],
  datasets: [grants, ordered],
  operations: [
    operationOn(grants, 'grants_of'),
    operationOn(ordered, 'ordered_of'),
    operationOn(defineDataset({ ...grants, id: 'undeclared' }), 'undeclared_of'),
  ],
})

/** A store holding one loaded generation of `grants` in memory. */
function memoryStore(rows: Array<{ org_nr: string; amount: number }>): DatasetStore {
  const reader: DatasetReader = {
    version: {
      id: 'grants',
      publishedAt: '2026-11-20',
      loadedAt: '2026-11-21T03:00:00.000Z',
      rows: rows.length,
      files: [{ name: 'grants.csv', url: 'https://example.no/grants.csv' }],
    },
    async select<R>(_table: string, query: { where?: Record<string, unknown> } = {}) {
      return rows.filter((row) => row.org_nr === query.where?.org_nr) as R[]
    },
    async count() {
      return rows.length
    },
    async search() {
      throw new TypeError('grants has no full-text index')
    },
  }
  return { reader: (dataset) => (dataset === grants ? reader : undefined) }
}

const call = async (datasets: DatasetStore | undefined, path: string, query: string) => {
  const errors: unknown[] = []
  const gateway = createGateway({
    sources: [source],
    ...(datasets ? { datasets } : {}),
    onError: (error) => errors.push(error),
  })
  const res = await gateway.handle({ method: 'GET', path, query, headers: {} })
  return { status: res.status, json: JSON.parse(res.body!), errors }
}

describe('operations on datasets', () => {
  it('answer from the loaded version and say which version answered', async () => {
    const res = await call(
      memoryStore([
        { org_nr: '1', amount: 10 },
        { org_nr: '2', amount: 5 },
      ]),
      '/api/v1/kilder/example/grants_of',
      'org_nr=1',
    )
    expect(res.status).toBe(200)
    expect(res.json.data).toEqual([{ org_nr: '1', amount: 10 }])
    expect(res.json._meta.datasets).toEqual([
      {
        id: 'grants',
        title: 'Example grants',
        publisher: 'Example Agency',
        license: 'NLOD 2.0',
        published_at: '2026-11-20',
        loaded_at: '2026-11-21T03:00:00.000Z',
        rows: 2,
        changes: 'daily',
      },
    ])
    expect(res.json._provenance.data).toEqual({
      source: 'Example Agency',
      source_api: 'https://example.no/grants.csv',
      description: 'Example grants; licence NLOD 2.0. Contains data from Example Agency under NLOD 2.0.',
    })
    // Nothing came from the source's upstream, so it is not credited.
    expect(res.json._provenance.upstreams).toEqual([])
    expect(res.json._provenance.datasets).toEqual([
      {
        id: 'grants',
        title: 'Example grants',
        publisher: 'Example Agency',
        license: 'NLOD 2.0',
        source_api: 'https://example.no/grants.csv',
        published_at: '2026-11-20',
        loaded_at: '2026-11-21T03:00:00.000Z',
      },
    ])
  })

  it('answer 502 dataset_not_loaded saying that the gateway reads no dataset store', async () => {
    const res = await call(undefined, '/api/v1/kilder/example/grants_of', 'org_nr=1')
    expect(res.status).toBe(502)
    expect(res.json.error).toMatchObject({ code: 'dataset_not_loaded', status: 502 })
    expect(res.json.error.message).toBe(
      "Dataset grants (Example grants) is not loaded in this deployment, which reads no dataset store: give one as createGateway's datasets option",
    )
    expect(res.errors).toEqual([])
  })

  it('end the message with the reason the store gives, a snapshot still being fetched', async () => {
    const fetching: DatasetStore = {
      reader: () => undefined,
      notLoadedReason: (dataset) => `the snapshot s3://bucket/data holding ${dataset.id} is being fetched`,
    }
    const res = await call(fetching, '/api/v1/kilder/example/grants_of', 'org_nr=1')
    expect(res.status).toBe(502)
    expect(res.json.error).toMatchObject({ code: 'dataset_not_loaded', status: 502 })
    expect(res.json.error.message).toBe(
      'Dataset grants (Example grants) is not loaded in this deployment; the snapshot s3://bucket/data holding grants is being fetched',
    )
  })

  it('name the command the store gives for loading the dataset, in the message and in the source descriptor', async () => {
    // The core knows no command line: the store says how it is filled (the SQLite store: `npx allmenning datasets …`).
    const store = {
      ...memoryStore([]),
      loadCommand: (dataset: DatasetDefinition) => `fill-store ${dataset.id} --from ${dataset.origin.page}`,
    }
    const res = await call(store, '/api/v1/kilder/example/ordered_of', 'org_nr=1')
    expect(res.status).toBe(502)
    expect(res.json.error.message).toBe(
      'Dataset ordered (Ordered register) is not loaded in this deployment; load it with: fill-store ordered --from https://example.no/order',
    )
    const descriptor = await call(store, '/api/v1/kilder/example', '')
    expect(descriptor.json.datasets.map((d: { load_command: string }) => d.load_command)).toContain(
      'fill-store ordered --from https://example.no/order',
    )
    const silent = await call(memoryStore([]), '/api/v1/kilder/example/ordered_of', 'org_nr=1')
    expect(silent.json.error.message).toBe(
      "Dataset ordered (Ordered register) is not loaded in this deployment; load it into the deployment's dataset store",
    )
  })

  it('treat reading a dataset the source does not declare as a programming error, never shown', async () => {
    const res = await call(memoryStore([]), '/api/v1/kilder/example/undeclared_of', 'org_nr=1')
    expect(res.status).toBe(500)
    expect(res.json.error.message).not.toContain('undeclared')
    expect(String(res.errors[0])).toContain('without declaring it')
  })
})

describe('defineDataset', () => {
  it.each([
    [{ id: 'Bad-Id' }, /must be lower-case/],
    [{ files: [] }, /names no file/],
    [{ tables: [] }, /fills no table/],
    [{ tables: [{ name: 'g', columns: { a: 'text' as const }, indexes: [['b']] }] }, /names column "b"/],
    [{ tables: [{ name: 'g', columns: { a: 'integer' as const }, sum: ['a'] }] }, /sums columns but has no key/],
    [{ tables: [{ name: 'g', columns: { a: 'text' as const }, key: ['a'], sum: ['a'] }] }, /cannot sum text column/],
    [{ maxMalformedShare: 2 }, /maxMalformedShare/],
    [
      { files: [{ ...grants.files[0]!, content: { format: { type: 'zip' }, members: {} } }] },
      /zip that names no member/,
    ],
    [{ files: [{ ...grants.files[0]!, content: { format: { type: 'parquet' } } }] }, /no format this version reads/],
  ])('rejects a definition that cannot work: %o', (change, message) => {
    expect(() => defineDataset({ ...grants, ...change } as DatasetDefinition)).toThrow(message)
  })

  it("takes a file's content as a function that loads it, and checks it when it is loaded", async () => {
    const given = grants.files[0]!.content
    let loads = 0
    const lazy = defineDataset({
      ...grants,
      files: [{ ...grants.files[0]!, content: async () => (loads++, typeof given === 'function' ? given() : given) }],
    })
    // Nothing is loaded by the definition: only a reader of the file asks.
    expect(loads).toBe(0)
    const content = await datasetFileContent(lazy.files[0]!)
    expect(loads).toBe(1)
    expect(content.format).toEqual({ type: 'delimited', delimiter: ';', quoting: 'none' })
    expect(await datasetFileContent(grants.files[0]!)).toBe(given)
    const broken = defineDataset({
      ...grants,
      files: [{ ...grants.files[0]!, content: async () => ({ format: { type: 'zip' }, members: {} }) }],
    })
    await expect(datasetFileContent(broken.files[0]!)).rejects.toThrow(
      'The content of dataset file grants.csv is a zip that names no member',
    )
  })

  it('takes a dataset derived from others, and rejects a derivation that cannot run', () => {
    const upstream = {
      id: 'addresses',
      name: 'Address API',
      baseUrl: 'https://example.no/adresser',
      publisher: 'Example',
    }
    const derived = {
      kind: 'derived' as const,
      page: 'https://example.no/adresser',
      from: ['grants'],
      action: 'placing addresses',
      budget: 100,
      requestsPerSecond: 10,
      upstreams: [upstream],
      derive: async () => ({ files: [], summary: '', remaining: 0 }),
    }
    expect(defineDataset({ ...grants, id: 'grant_points', origin: derived }).origin).toBe(derived)
    expect(() => defineDataset({ ...grants, id: 'grant_points', origin: { ...derived, from: [] } })).toThrow(
      /derived from no dataset/,
    )
    expect(() =>
      defineDataset({ ...grants, id: 'grant_points', origin: { ...derived, from: ['grant_points'] } }),
    ).toThrow(/from itself/)
    expect(() => defineDataset({ ...grants, id: 'grant_points', origin: { ...derived, budget: 0 } })).toThrow(
      /budget must be a positive number/,
    )
    expect(() => defineDataset({ ...grants, id: 'grant_points', origin: { ...derived, budget: 1.5 } })).toThrow(
      /whole number/,
    )
    expect(() =>
      defineDataset({ ...grants, id: 'grant_points', origin: { ...derived, requestsPerSecond: Number.NaN } }),
    ).toThrow(/requestsPerSecond/)
  })

  it('rejects a downloadable file without an address', () => {
    const files = [{ ...grants.files[0]!, url: undefined }]
    expect(() => defineDataset({ ...grants, files })).toThrow(/neither url nor discover/)
  })
})
