// The example Express server as an MCP server, driven by the official MCP SDK's own client over
// real HTTP: the catalogue at /mcp and one server per source at /{source}/mcp.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/express-server/src/app.js'
import { startFakeAvinor, type FakeAvinor } from '@allmenning/sources/avinor/testing'
import { startFakeBrreg, type FakeBrreg } from '@allmenning/sources/firmafakta/testing'
import { startFakeStatnett, statnettPaths } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'

let statnett: FakeUpstream
let avinor: FakeAvinor
let brreg: FakeBrreg
let server: Server
let base: string
const clients: Client[] = []

beforeAll(async () => {
  statnett = await startFakeStatnett()
  avinor = await startFakeAvinor()
  brreg = await startFakeBrreg()
  const app = createApp(
    {
      ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl,
      ALLMENNING_UPSTREAM_AVINOR: avinor.baseUrl,
      ALLMENNING_UPSTREAM_BRREG: brreg.baseUrl,
    },
    { onError: () => {} },
  )
  server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await Promise.all([statnett.close(), avinor.close(), brreg.close()])
})

/** An SDK client, initialized (initialize + notifications/initialized) against one endpoint. */
async function connect(path: string): Promise<Client> {
  const client = new Client({ name: 'allmenning-e2e', version: '1.0.0' })
  clients.push(client)
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`)))
  return client
}

/** The structured content of a tool result, checked against its text rendering. */
function structured(result: Awaited<ReturnType<Client['callTool']>>): any {
  const text = (result.content as { type: string; text: string }[])[0]!
  expect(text.type).toBe('text')
  expect(JSON.parse(text.text)).toEqual(result.structuredContent)
  return result.structuredContent
}

describe('a source server (/statnett/mcp) through the SDK client', () => {
  it('initializes at the newest protocol version, without a session', async () => {
    const client = await connect('/statnett/mcp')
    expect(client.getServerVersion()).toMatchObject({
      name: 'allmenning-statnett',
      title: 'Statnett driftsdata',
      version: '0.1.0',
    })
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } })
    expect(client.getInstructions()).toContain('/api/v1/kilder/statnett/{operation}')
    expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined()
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe(LATEST_PROTOCOL_VERSION)
  })

  it('lists one tool per operation, with the parameters as JSON Schema', async () => {
    const client = await connect('/statnett/mcp')
    const { tools } = await client.listTools()
    // Made from the same definitions as the JSON API: the descriptor's operations, one tool each.
    const descriptor = (await (await fetch(`${base}/api/v1/kilder/statnett?view=names`)).json()) as {
      operations: { name: string }[]
    }
    expect(tools.map((t) => t.name).sort()).toEqual(descriptor.operations.map((o) => o.name).sort())
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['get_physical_flow', 'get_power_situation', 'get_production_consumption']),
    )
    const flow = tools.find((t) => t.name === 'get_physical_flow')!
    expect(flow.description).toContain('GET /api/v1/kilder/statnett/get_physical_flow{?area,limit,offset}')
    expect(flow.inputSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
        offset: { type: 'integer', minimum: 0, default: 0 },
      },
    })
    expect(flow.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true })
  })

  it('calls a tool: the REST envelope as structured content and as text', async () => {
    const client = await connect('/statnett/mcp')
    const result = await client.callTool({ name: 'get_physical_flow', arguments: { area: 'NO2', limit: 2 } })
    expect(result.isError).toBe(false)
    const envelope = structured(result)
    expect(envelope).toMatchObject({
      source: 'statnett',
      operation: 'get_physical_flow',
      parameters: { area: 'NO2', limit: 2, offset: 0 },
    })
    expect(envelope.data).toHaveLength(2)
    // The very answer the JSON API gives, from the same cache entry.
    const rest = await fetch(`${base}/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=2`)
    expect(rest.headers.get('cache-status')).toMatch(/hit/)
    expect(await rest.json()).toEqual(envelope)
  })

  it('answers a bad argument with a tool error carrying the shared 400 body', async () => {
    const client = await connect('/statnett/mcp')
    const result = await client.callTool({ name: 'get_physical_flow', arguments: { limit: 500 } })
    expect(result.isError).toBe(true)
    const body = structured(result)
    expect(body.error).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      details: [{ parameter: 'limit', rule: 'max_value' }],
    })
  })

  it('answers an upstream failure with a tool error carrying the shared 502 body', async () => {
    statnett.route(statnettPaths.powerSituation, () => ({
      status: 503,
      headers: { 'content-type': 'text/plain' },
      body: 'Service Unavailable',
    }))
    const client = await connect('/statnett/mcp')
    const result = await client.callTool({ name: 'get_power_situation', arguments: {} })
    expect(result.isError).toBe(true)
    expect(structured(result).error).toMatchObject({ status: 502, upstream: 'statnett' })
  })

  it('refuses an unknown tool as a protocol error', async () => {
    const client = await connect('/statnett/mcp')
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/unknown tool "nope"/)
  })
})

describe('firmafakta over MCP, as agents call it', () => {
  it('takes org_nr as its input schema names it', async () => {
    const client = await connect('/firmafakta/mcp')
    const { tools } = await client.listTools()
    const details = tools.find((t) => t.name === 'selskapsdetaljer')!
    expect(details.inputSchema.required).toEqual(['org_nr'])
    const result = await client.callTool({ name: 'selskapsdetaljer', arguments: { org_nr: '976030788' } })
    expect(result.isError).toBe(false)
    expect(structured(result).data).toMatchObject({ organisasjonsnummer: '976030788' })
  })
})

describe('the catalogue server (/mcp) through the SDK client', () => {
  it('lists the catalogue tools, made from the routes they call', async () => {
    const client = await connect('/mcp')
    expect(client.getServerVersion()?.name).toBe('allmenning')
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual([
      'search_sources',
      'list_sources',
      'describe_source',
      'describe_operation',
      'get_data',
    ])
    const search = tools.find((t) => t.name === 'search_sources')!
    expect(search.inputSchema.required).toEqual(['q'])
    expect(search.inputSchema.properties).toMatchObject({ limit: { maximum: 10, default: 5 } })
    const describeSource = tools.find((t) => t.name === 'describe_source')!
    expect((describeSource.inputSchema.properties as any).source.enum).toEqual(
      expect.arrayContaining(['statnett', 'firmafakta', 'avinor']),
    )
  })

  it('finds a source, describes it and an operation, and gets its data', async () => {
    const client = await connect('/mcp')
    const found = structured(await client.callTool({ name: 'search_sources', arguments: { q: 'strøm' } }))
    expect(found.results[0].id).toBe('statnett')
    const source = structured(
      await client.callTool({ name: 'describe_source', arguments: { source: 'statnett', view: 'compact' } }),
    )
    expect(source.operations.map((o: { name: string }) => o.name)).toContain('get_physical_flow')
    const operation = structured(
      await client.callTool({
        name: 'describe_operation',
        arguments: { source: 'statnett', operation: 'get_physical_flow' },
      }),
    )
    expect(operation.get_url_template).toBe('/api/v1/kilder/statnett/get_physical_flow{?area,limit,offset}')
    const data = structured(
      await client.callTool({
        name: 'get_data',
        arguments: { source: 'statnett', operation: 'get_physical_flow', parameters: { area: 'NO1', limit: 1 } },
      }),
    )
    expect(data).toMatchObject({ source: 'statnett', parameters: { area: 'NO1', limit: 1, offset: 0 } })
  })

  it('answers an unknown source in get_data with a tool error carrying the 404 body', async () => {
    const client = await connect('/mcp')
    const result = await client.callTool({ name: 'get_data', arguments: { source: 'nope', operation: 'x' } })
    expect(result.isError).toBe(true)
    expect(structured(result).error).toMatchObject({ status: 404, code: 'source_not_found' })
  })
})

describe('the same endpoints without the SDK', () => {
  it('answers GET with 405 and a client that accepts only application/json', async () => {
    const get = await fetch(`${base}/statnett/mcp`)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    const post = await fetch(`${base}/statnett/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(post.status).toBe(200)
    expect(await post.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
  })

  it('leaves /{anything}/mcp that is no source to the host app', async () => {
    const res = await fetch(`${base}/nope/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(404)
    // The host app's own not-found answer (the example uses the adapter's JSON one), not the gateway's source_not_found.
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('route_not_found')
  })
})

describe('with MOUNT_PATH=/wiki, as the public gateway lays its paths out', () => {
  let wiki: Server
  let wikiBase: string
  beforeAll(async () => {
    const app = createApp(
      {
        MOUNT_PATH: '/wiki',
        ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl,
        ALLMENNING_UPSTREAM_AVINOR: avinor.baseUrl,
        ALLMENNING_UPSTREAM_BRREG: brreg.baseUrl,
      },
      { onError: () => {} },
    )
    wiki = createServer(app)
    await new Promise<void>((resolve) => wiki.listen(0, '127.0.0.1', resolve))
    wikiBase = `http://127.0.0.1:${(wiki.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    wiki.closeAllConnections()
    await new Promise<void>((resolve) => wiki.close(() => resolve()))
  })

  it('serves the MCP servers at the root, as agents configured for the public gateway call them, with links that resolve', async () => {
    const client = new Client({ name: 'allmenning-e2e', version: '1.0.0' })
    clients.push(client)
    await client.connect(new StreamableHTTPClientTransport(new URL(`${wikiBase}/firmafakta/mcp`)))
    const result = await client.callTool({ name: 'selskapsdetaljer', arguments: { org_nr: '976030788' } })
    expect(result.isError).toBe(false)
    const self = (result.structuredContent as any)._links.self as string
    const linked = await fetch(`${wikiBase}${self}`)
    expect(linked.status).toBe(200)
    expect(((await linked.json()) as any).data.organisasjonsnummer).toBe('976030788')
    expect((await fetch(`${wikiBase}/wiki/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=976030788`)).status).toBe(
      200,
    )
  })

  it("serves the catalogue at /allemannsdata/mcp with the public gateway's tool names, with templates that resolve", async () => {
    const client = new Client({ name: 'allmenning-e2e', version: '1.0.0' })
    clients.push(client)
    await client.connect(new StreamableHTTPClientTransport(new URL(`${wikiBase}/allemannsdata/mcp`)))
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'search_wiki',
      'describe_source',
      'describe_operation',
      'get_data',
    ])
    const described = await client.callTool({
      name: 'describe_operation',
      arguments: { source: 'firmafakta', operation: 'selskapsdetaljer' },
    })
    const template = (described.structuredContent as any).json_get_url_template as string
    expect(template).toMatch(/^\/api\/v1\/kilder\/firmafakta\/selskapsdetaljer\{\?/)
    expect((await fetch(`${wikiBase}${template.replace(/\{\?.*$/, '')}?org_nr=976030788`)).status).toBe(200)
    const data = await client.callTool({
      name: 'get_data',
      arguments: { source: 'firmafakta', operation: 'selskapsdetaljer', parameters: { org_nr: '976030788' } },
    })
    expect((data.structuredContent as any).data.organisasjonsnummer).toBe('976030788')
  })
})

it('has no /allemannsdata/mcp without the /wiki compatibility mount', async () => {
  const app = createApp(
    { ALLMENNING_UPSTREAM_STATNETT: statnett.baseUrl, ALLMENNING_RATE_LIMIT: 'off' },
    { onError: () => {} },
  )
  const server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/allemannsdata/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(res.status).toBe(404)
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})
