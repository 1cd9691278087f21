import * as v from 'valibot'
import { createGateway, type GatewayOptions, type GatewayRequest, type LocalGateway } from '@allmenning/core'
import {
  defineDataset,
  defineOperation,
  defineSource,
  defineUpstream,
  type DatasetReader,
} from '@allmenning/core/source'
import type { DatasetStore } from '@allmenning/core/extension'
import { fakeReply, startFakeUpstream, type FakeUpstream } from '@allmenning/core/testing'

/*
 * A small source for the observers' tests, its upstreams played on 127.0.0.1: `stock` answers
 * (slowly enough for two identical requests to meet in flight) or fails with a 503, `warehouse`
 * never answers, `depot` answers until told to fail. Each has its own breaker.
 */

const stock = defineUpstream({
  id: 'stock',
  name: 'Stock service',
  baseUrl: 'https://stock.example.no',
  publisher: 'Shop AS',
})
const warehouse = defineUpstream({
  id: 'warehouse',
  name: 'Warehouse service',
  baseUrl: 'https://warehouse.example.no',
  publisher: 'Shop AS',
})
const depot = defineUpstream({
  id: 'depot',
  name: 'Depot service',
  baseUrl: 'https://depot.example.no',
  publisher: 'Shop AS',
})

export const priceList = defineDataset({
  id: 'price_list',
  title: 'Price list',
  description: 'Prices by item.',
  publisher: 'Shop AS',
  license: 'CC BY 4.0',
  attribution: 'Contains prices from Shop AS.',
  origin: { kind: 'order', page: 'https://shop.example.no/prices', instructions: 'Ask for it.' },
  changes: 'monthly',
  tables: [{ name: 'prices', columns: { item: 'text', price: 'integer' }, indexes: [['item']] }],
  files: [
    {
      name: 'prices.csv',
      content: {
        format: { type: 'delimited', delimiter: ';', quoting: 'none' },
        rows: () => (cells) => ({ table: 'prices', row: { item: cells[0] ?? null, price: Number(cells[1]) } }),
      },
    },
  ],
})

const items = v.array(v.object({ id: v.string(), name: v.string() }))
type Items = v.InferOutput<typeof items>

const itemsFrom = (upstream: typeof stock, path: string) =>
  defineOperation({
    name: `${upstream.id}_items`,
    description: `Items from ${upstream.name}.`,
    parameters: { kind: v.optional(v.string(), 'all') },
    output: items,
    datasets: [],
    async run(params, ctx) {
      const { body } = await ctx.upstream(upstream).getJson<Items>(path, { query: { kind: params.kind } })
      return { data: body }
    },
  })

const priceOf = defineOperation({
  name: 'price_of',
  description: 'The price of an item, from the price list.',
  parameters: { item: v.string() },
  output: v.object({ item: v.string(), price: v.number() }),
  datasets: [priceList],
  async run(params, ctx) {
    const rows = await ctx
      .dataset(priceList)
      .select<{ item: string; price: number }>('prices', { where: { item: params.item } })
    return { data: rows[0] ?? { item: params.item, price: 0 } }
  },
})

export const shop = () =>
  defineSource({
    id: 'shop',
    name: 'Shop',
    description: 'Items and prices of a shop.',
    documentation: 'https://shop.example.no/docs',
    topic: 'economy',
    keywords: ['shop'],
    contentLanguages: ['no'],
    cacheTtlSeconds: 60,
    upstreams: [stock, warehouse, depot],
    datasets: [priceList],
    operations: [itemsFrom(stock, '/items'), itemsFrom(warehouse, '/items'), itemsFrom(depot, '/items'), priceOf],
  })

/** The price list as loaded, version and all, so the metrics can report it. */
export const loadedPriceList: DatasetReader['version'] = {
  id: 'price_list',
  publishedAt: '2026-10-31',
  loadedAt: '2026-11-20T04:00:00.000Z',
  rows: 3,
  files: [{ name: 'prices.csv', url: null }],
}

const priceStore: DatasetStore = {
  reader: (dataset) =>
    dataset.id === 'price_list'
      ? {
          version: loadedPriceList,
          select: async <R>() => [{ item: 'kaffe', price: 49 }] as R[],
          count: async () => 3,
          search: async () => ({ total: 0, rows: [] }),
        }
      : undefined,
}

/** The three upstreams on one local server, each at its own path prefix. */
export async function startShopUpstreams(): Promise<
  FakeUpstream & { stockFails(fail: boolean): void; depotFails(fail: boolean): void }
> {
  let stockFailing = false
  let depotFailing = false
  const fake = await startFakeUpstream({
    '/stock/items': () =>
      stockFailing
        ? fakeReply.status(503, 'Service Unavailable')
        : fakeReply.slow(fakeReply.json([{ id: 's1', name: 'Kaffe' }]), 80),
    '/warehouse/items': () => fakeReply.hang(),
    '/depot/items': () =>
      depotFailing ? fakeReply.status(500, 'Internal Server Error') : fakeReply.json([{ id: 'd1', name: 'Te' }]),
  })
  return Object.assign(fake, {
    stockFails: (fail: boolean) => void (stockFailing = fail),
    depotFails: (fail: boolean) => void (depotFailing = fail),
  })
}

/** A gateway over the shop on those upstreams: breakers open after 2 failures, calls time out after 150 ms, 2 requests a minute per client. */
export function shopGateway(fake: FakeUpstream, options: Partial<GatewayOptions> = {}): LocalGateway {
  return createGateway({
    sources: [shop()],
    upstreams: {
      stock: { baseUrl: `${fake.baseUrl}/stock`, timeoutMs: 2000 },
      warehouse: { baseUrl: `${fake.baseUrl}/warehouse`, timeoutMs: 150 },
      depot: { baseUrl: `${fake.baseUrl}/depot`, timeoutMs: 2000 },
    },
    upstream: { breakAfterFailures: 2, restSeconds: 3600 },
    rateLimit: { quota: { requests: 2, windowSeconds: 60 } },
    datasets: priceStore,
    onError: () => {},
    ...options,
  })
}

/** A GET through the gateway, as an adapter hands it over. */
export const get = (gateway: LocalGateway, path: string, query = '', extra: Partial<GatewayRequest> = {}) =>
  gateway.handle({ method: 'GET', path, query, headers: {}, ...extra })
