import * as v from 'valibot'
import {
  checkUpstreamShape,
  defineOperation,
  defineSource,
  defineUpstream,
  type SourceDefinition,
} from '@allmenning/core/source'
import type { Explorer } from '@allmenning/core/extension'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream.js'
import { fakeReply } from '../fake-reply.js'

/**
 * The names the conformance suite's own source answers under, for cases an adapter author
 * adds (`options.cases`) and for the built-in ones.
 */
export const conformanceNames = {
  /** The source id: `/api/v1/kilder/gridflow`, `/gridflow/mcp`. */
  source: 'gridflow',
  /** An operation that answers: `area` (upper-cased, one of {@link conformanceAreas}), `limit`, `offset`. */
  operation: 'get_flow',
  /** An operation whose upstream always answers 500, so the gateway answers 502. */
  failingOperation: 'get_outages',
  /** The upstream both operations call; a 502 names it. */
  upstream: 'gridflow',
} as const

/** Every value `area` accepts. */
export const conformanceAreas = ['NO1', 'NO2', 'NO3', 'NO4', 'NO5', 'SE3', 'DK1', 'FI'] as const

/**
 * The flows the fake upstream answers: NO2 is on four of them (so `area=NO2&limit=2` has more
 * results), every area the cases ask for on at least one.
 */
const flows = [
  { from: 'NO1', to: 'NO2', mw: 812.5 },
  { from: 'NO2', to: 'NO5', mw: -240 },
  { from: 'NO2', to: 'DK1', mw: 1190 },
  { from: 'NO2', to: 'SE3', mw: null },
  { from: 'NO1', to: 'SE3', mw: 1475.25 },
  { from: 'SE3', to: 'FI', mw: 903 },
]

const flowRows = v.array(v.object({ from: v.string(), to: v.string(), mw: v.nullable(v.number()), at: v.string() }))

const gridflowApi = defineUpstream({
  id: conformanceNames.upstream,
  name: 'Gridflow (conformance fake)',
  baseUrl: 'http://127.0.0.1:9/gridflow',
  publisher: 'Allmenning conformance suite',
})

const area = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.toUpperCase(),
    v.picklist(conformanceAreas),
    v.description('Price area; only flows touching it are returned.'),
  ),
)

const getFlow = defineOperation({
  name: conformanceNames.operation,
  description: 'Power flow in MW between price areas (strøm, kraft), from the conformance fake.',
  parameters: { area },
  output: v.array(
    v.object({ from_area: v.string(), to_area: v.string(), flow_mw: v.nullable(v.number()), time: v.string() }),
  ),
  async run(params, ctx) {
    const client = ctx.upstream(gridflowApi)
    const rows = checkUpstreamShape(client, flowRows, (await client.getJson('/flows')).body, '/flows')
    const data = rows.map((row) => ({ from_area: row.from, to_area: row.to, flow_mw: row.mw, time: row.at }))
    return {
      data:
        params.area === undefined
          ? data
          : data.filter((row) => row.from_area === params.area || row.to_area === params.area),
    }
  },
})

const getOutages = defineOperation({
  name: conformanceNames.failingOperation,
  description: 'Planned outages per price area; its upstream always fails, to show the 502.',
  parameters: { area },
  output: v.array(v.object({ area: v.string() })),
  async run(_params, ctx) {
    const response = await ctx.upstream(gridflowApi).getJson<{ area: string }[]>('/outages')
    return { data: response.body }
  },
})

/** The suite's one source: two operations over a local fake upstream, searchable as "strøm" and "kraft". */
export function conformanceSource(): SourceDefinition {
  return defineSource({
    id: conformanceNames.source,
    name: 'Gridflow (conformance fake)',
    description: 'Power flow between price areas, served by the adapter conformance suite from a local fake upstream.',
    documentation: 'https://example.org/gridflow',
    topic: 'energy',
    contentLanguages: ['en'],
    keywords: ['power', 'strøm', 'kraft', 'nett', 'flow'],
    cacheTtlSeconds: 300,
    limit: { default: 25, max: 100 },
    upstreams: [gridflowApi],
    operations: [getFlow, getOutages],
  })
}

/** The fake upstream: `/flows` answers the flows as JSON, `/outages` a plain-text 500. */
export function startConformanceUpstream(): Promise<FakeUpstream> {
  const at = '2026-01-15T12:00:00.000Z'
  return startFakeUpstream(
    {
      '/flows': () => fakeReply.json(flows.map((flow) => ({ ...flow, at }))),
      '/outages': () => fakeReply.status(500, 'Internal Server Error'),
    },
    { prefix: '/gridflow' },
  )
}

const escapeHtml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')

/**
 * The suite's own API explorer, used unless the caller gives one: two small files and one
 * large script of multi-byte text, so a Content-Length counted in characters shows.
 */
export function conformanceExplorer(): Explorer {
  const large = `// ${'Æ'.repeat(64)}\n`.repeat(8 * 1024) + 'document.body.dataset.ready = "ja"\n'
  return {
    name: 'Conformance explorer',
    assets: {
      'conformance.css': { contentType: 'text/css; charset=utf-8', body: 'body { font-family: sans-serif }\n' },
      'conformance-large.js': { contentType: 'text/javascript; charset=utf-8', body: large },
      'conformance.js': {
        contentType: 'text/javascript; charset=utf-8',
        body: 'document.title = "Utforsker – ærlig"\n',
      },
    },
    page: ({ title, openapi, asset }) =>
      `<!doctype html><html><head><title>${escapeHtml(title)}</title><link rel="stylesheet" href="${escapeHtml(asset('conformance.css'))}"></head>` +
      `<body data-openapi="${escapeHtml(openapi)}"><script src="${escapeHtml(asset('conformance-large.js'))}"></script>` +
      `<script src="${escapeHtml(asset('conformance.js'))}"></script></body></html>`,
  }
}
