import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import {
  conformanceNames,
  postRpc,
  rpc,
  type AdapterConformanceCase,
  type AdapterConformanceContext,
} from '@allmenning/core/conformance'

const { source, operation, failingOperation, upstream } = conformanceNames
const op = `/api/v1/kilder/${source}/${operation}`
const endpoint = `/${source}/mcp`

/** An SDK client, initialized against an endpoint under the target's public prefix. */
async function connect(ctx: AdapterConformanceContext, path: string): Promise<Client> {
  const client = new Client({ name: 'allmenning-conformance', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${ctx.base}${path}`)))
  return client
}

/**
 * The MCP endpoints through an adapter, for a gateway with `mcpServers()` among its extensions:
 * the official SDK's client, then the transport rules one by one. Give them to the adapter
 * conformance suite with the extension.
 *
 * @example
 * import { runAdapterConformance } from '@allmenning/core/conformance'
 * import { mcpServers } from '@allmenning/mcp'
 * import { mcpConformanceCases } from '@allmenning/mcp/testing'
 * import { afterAll, beforeAll, describe, expect, it } from 'vitest'
 *
 * declare const startServer: Parameters<typeof runAdapterConformance>[1]
 * const runner = { describe, it, expect, beforeAll, afterAll }
 *
 * runAdapterConformance(runner, startServer, { hostApp: { notFoundType: /^text\/html/ }, extensions: [mcpServers()], cases: mcpConformanceCases })
 */
export const mcpConformanceCases: AdapterConformanceCase[] = [
  {
    name: `MCP: the SDK client initializes, lists the tools and calls them at ${endpoint}`,
    async run(ctx) {
      const { expect } = ctx
      const client = await connect(ctx, endpoint)
      try {
        expect(client.getServerVersion()?.name).toBe(`allmenning-${source}`)
        const { tools } = await client.listTools()
        const flow = tools.find((t) => t.name === operation)!
        expect(flow.description).toContain(`GET ${ctx.prefix}${op}{?area,limit,offset}`)
        expect(flow.inputSchema.properties).toMatchObject({ limit: { type: 'integer', maximum: 100 } })

        const ok = await client.callTool({ name: operation, arguments: { area: 'SE3', limit: 1 } })
        expect(ok.isError).toBe(false)
        const envelope = ok.structuredContent as any
        expect(envelope).toMatchObject({ source, parameters: { area: 'SE3', limit: 1, offset: 0 } })
        expect(envelope._links.self).toBe(`${ctx.prefix}${op}?area=SE3&limit=1&offset=0`)
        expect(JSON.parse((ok.content as { text: string }[])[0]!.text)).toEqual(envelope)
        // The JSON API answers the same GET from the entry the tool call stored.
        const rest = await ctx.get(`${op}?area=SE3&limit=1`)
        expect(rest.headers['cache-status']).toMatch(/; hit;/)

        const bad = await client.callTool({ name: operation, arguments: { limit: 0 } })
        expect(bad.isError).toBe(true)
        expect((bad.structuredContent as any).error).toMatchObject({
          status: 400,
          code: 'invalid_parameter',
          details: [{ parameter: 'limit' }],
        })
        expect((bad.structuredContent as any)._links.api_index).toBe(`${ctx.prefix}/api/v1/`)

        const failed = await client.callTool({ name: failingOperation, arguments: { area: 'NO1' } })
        expect(failed.isError).toBe(true)
        expect((failed.structuredContent as any).error).toMatchObject({ status: 502, code: 'upstream_error', upstream })
      } finally {
        await client.close()
      }
    },
  },
  {
    name: 'MCP: the SDK client finds, describes and calls through the catalogue at /mcp',
    async run(ctx) {
      const { expect } = ctx
      const client = await connect(ctx, '/mcp')
      try {
        expect(client.getInstructions()).toContain(`${ctx.prefix}/{source}/mcp`)
        const found = await client.callTool({ name: 'search_sources', arguments: { q: 'strøm' } })
        expect((found.structuredContent as any).results[0]).toMatchObject({
          id: source,
          _links: { api: `${ctx.prefix}/api/v1/kilder/${source}` },
        })
        const described = await client.callTool({ name: 'describe_operation', arguments: { source, operation } })
        expect((described.structuredContent as any).get_url_template).toBe(`${ctx.prefix}${op}{?area,limit,offset}`)
        const data = await client.callTool({
          name: 'get_data',
          arguments: { source, operation, parameters: { area: 'FI' } },
        })
        expect(data.structuredContent).toMatchObject({ source, parameters: { area: 'FI' } })
      } finally {
        await client.close()
      }
    },
  },
  {
    name: 'MCP: GET is a 405 with Allow: POST (no event stream)',
    async run(ctx) {
      const body = ctx.expectError(
        await ctx.get(endpoint, { headers: { accept: 'text/event-stream' } }),
        405,
        'method_not_allowed',
      )
      ctx.expect(body.error.message).toContain('use POST')
    },
  },
  {
    name: 'MCP: a notification is accepted with 202 and no body',
    async run(ctx) {
      const reply = await ctx.get('/mcp', postRpc({ jsonrpc: '2.0', method: 'notifications/initialized' }))
      ctx.expect(reply.status).toBe(202)
      ctx.expect(reply.body).toBe('')
      ctx.expect(reply.headers['content-type']).toBeUndefined()
    },
  },
  {
    name: 'MCP: a client that accepts only application/json is answered with JSON',
    async run(ctx) {
      const reply = await ctx.get(endpoint, postRpc(rpc(4, 'ping'), { accept: 'application/json' }))
      ctx.expect(reply.status).toBe(200)
      ctx.expectLengthMatches(reply)
      ctx.expect(reply.headers['cache-control']).toBe('no-store')
      ctx.expect(ctx.json(reply)).toEqual({ jsonrpc: '2.0', id: 4, result: {} })
    },
  },
  {
    name: 'MCP: the current and the previous protocol version are negotiated; an unknown header version is a 400',
    async run(ctx) {
      const { expect } = ctx
      const initialize = (protocolVersion: string) =>
        rpc(1, 'initialize', {
          protocolVersion,
          capabilities: {},
          clientInfo: { name: 'allmenning-conformance', version: '1' },
        })
      for (const [asked, answered] of [
        [LATEST_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION],
        ['2025-06-18', '2025-06-18'],
        ['2099-01-01', LATEST_PROTOCOL_VERSION],
      ]) {
        const reply = await ctx.get(endpoint, postRpc(initialize(asked!)))
        expect(reply.status, asked).toBe(200)
        expect(ctx.json(reply).result.protocolVersion, asked).toBe(answered)
      }
      // After initialize, the client names its version in a header: one the server speaks is answered.
      const previous = await ctx.get(endpoint, postRpc(rpc(2, 'tools/list'), { 'mcp-protocol-version': '2025-06-18' }))
      expect(previous.status).toBe(200)
      expect(ctx.json(previous).result.tools.map((t: { name: string }) => t.name)).toContain(operation)
      const unknown = await ctx.get(endpoint, postRpc(rpc(3, 'tools/list'), { 'mcp-protocol-version': '2099-01-01' }))
      expect(unknown.status).toBe(400)
      expect(ctx.json(unknown)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } })
    },
  },
  {
    name: 'MCP: malformed JSON is a JSON-RPC parse error (400, -32700), not a 500',
    async run(ctx) {
      const reply = await ctx.get('/mcp', postRpc('{"jsonrpc":'))
      ctx.expect(reply.status).toBe(400)
      ctx.expect(ctx.json(reply)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } })
    },
    exception: {
      quirk: 'hostParsesJson',
      async run(ctx) {
        const reply = await ctx.get('/mcp', postRpc('{"jsonrpc":'))
        ctx.expect(reply.status).toBe(400)
        ctx.expect(reply.headers['content-type']).toMatch(/^text\/html/)
      },
    },
  },
  {
    name: "MCP: a page on a foreign origin, or on a name rebound to this server, is refused with a JSON-RPC 403; the gateway's own page is answered",
    async run(ctx) {
      const { expect } = ctx
      const own = new URL(ctx.origin)
      const foreign: Record<string, string>[] = [
        { origin: 'http://evil.example' },
        { origin: `http://evil.example:${own.port}`, host: `evil.example:${own.port}` },
      ]
      for (const headers of foreign) {
        const refused = await ctx.get(endpoint, postRpc(rpc(1, 'tools/list'), headers))
        expect(refused.status, headers.origin).toBe(403)
        expect(ctx.json(refused)).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: expect.stringContaining('Forbidden') },
        })
      }
      const answered = await ctx.get(endpoint, postRpc(rpc(2, 'tools/list'), { origin: own.origin }))
      expect(answered.status).toBe(200)
      expect(ctx.json(answered).result.tools.length).toBeGreaterThan(0)
    },
  },
  {
    name: "MCP: /{name}/mcp for no source goes on to the host app's 404",
    async run(ctx) {
      const reply = await ctx.get('/nope/mcp', postRpc(rpc(1, 'ping')))
      ctx.expect(reply.status).toBe(404)
      ctx.expect(reply.body).not.toContain('source_not_found')
    },
    exception: {
      quirk: 'noHostApp',
      async run(ctx) {
        ctx.expectError(await ctx.get('/nope/mcp', postRpc(rpc(1, 'ping'))), 404, 'source_not_found')
      },
    },
  },
]

/**
 * The catalogue under the public gateway's names at `/allemannsdata/mcp`, through an adapter,
 * for a gateway with `mcpServers({ publicGatewayCatalogue: true })`: the SDK client calls its
 * four tools there.
 *
 * @example
 * import { runAdapterConformance } from '@allmenning/core/conformance'
 * import { mcpServers } from '@allmenning/mcp'
 * import { mcpConformanceCases, mcpPublicGatewayCases } from '@allmenning/mcp/testing'
 * import { afterAll, beforeAll, describe, expect, it } from 'vitest'
 *
 * declare const startServer: Parameters<typeof runAdapterConformance>[1]
 * const runner = { describe, it, expect, beforeAll, afterAll }
 *
 * runAdapterConformance(runner, startServer, { extensions: [mcpServers({ publicGatewayCatalogue: true })], cases: [...mcpConformanceCases, ...mcpPublicGatewayCases] })
 */
export const mcpPublicGatewayCases: AdapterConformanceCase[] = [
  {
    name: "MCP: the SDK client finds, describes and calls through the public gateway's names at /allemannsdata/mcp",
    async run(ctx) {
      const { expect } = ctx
      const client = await connect(ctx, '/allemannsdata/mcp')
      try {
        const { tools } = await client.listTools()
        expect(tools.map((t) => t.name)).toEqual(['search_wiki', 'describe_source', 'describe_operation', 'get_data'])
        const found = await client.callTool({ name: 'search_wiki', arguments: { query: 'strøm' } })
        expect(found.isError).toBe(false)
        expect((found.structuredContent as any).results[0]).toMatchObject({ id: source })
        const template = `${ctx.prefix}${op}{?area,limit,offset}`
        const described = await client.callTool({ name: 'describe_operation', arguments: { source, operation } })
        expect(described.structuredContent).toMatchObject({
          json_get_url_template: template,
          get_url_template: template,
        })
        expect(JSON.parse((described.content as { text: string }[])[0]!.text).json_get_url_template).toBe(template)
        const ofSource = await client.callTool({ name: 'describe_source', arguments: { source } })
        const listed = (ofSource.structuredContent as any).operations.find(
          (o: { name: string }) => o.name === operation,
        )
        expect(listed.json_get_url_template).toBe(template)
        const data = await client.callTool({
          name: 'get_data',
          arguments: { source, operation, parameters: { area: 'FI' } },
        })
        expect(data.structuredContent).toMatchObject({ source, operation, parameters: { area: 'FI' } })
        const bad = await client.callTool({ name: 'search_wiki', arguments: {} })
        expect(bad.isError).toBe(true)
        expect((bad.structuredContent as any).error).toMatchObject({ status: 400, details: [{ parameter: 'q' }] })
      } finally {
        await client.close()
      }
    },
  },
]
