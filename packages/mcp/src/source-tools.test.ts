import type { ExtensionHost, InvokedAnswer, Links } from '@allmenning/core/extension'
import type { GatewayRequest } from '@allmenning/core'
import { describe, expect, it } from 'vitest'
import { mcpServers } from './mcp-servers.js'

const links = {
  apiRoot: '/api/v1',
  mount: '',
  operation: (source: string, operation: string) => `/api/v1/kilder/${source}/${operation}`,
  extension: (name: string, source?: string) => (source ? `/${source}/${name}` : `/${name}`),
} as unknown as Links

/** A host whose front door must not be used: an operation's tool call is answered by `invoke`. */
function invokingHost() {
  const calls: {
    target: { source: string; operation: string }
    params: Record<string, unknown>
    request: GatewayRequest
  }[] = []
  const envelope = { source: 'tidevann', operation: 'get_tide', data: [{ level_cm: 112 }] }
  const answer: InvokedAnswer = { status: 200, value: envelope, body: JSON.stringify(envelope) }
  const host: ExtensionHost = {
    version: '0.0.0',
    sources: [
      {
        id: 'tidevann',
        name: 'Tides',
        description: 'Tide levels.',
        operations: [
          {
            name: 'get_tide',
            description: 'The tide at a harbour.',
            parameters: [{ name: 'harbour', jsonSchema: { type: 'string' }, required: true }],
            path: '/api/v1/kilder/tidevann/get_tide',
            getUrlTemplate: () => '/api/v1/kilder/tidevann/get_tide{?harbour}',
          },
        ],
      },
    ],
    routes: () => [],
    handle: () => Promise.reject(new Error('an operation tool call went through the front door')),
    invoke: async (request, target, params) => {
      calls.push({ target, params: { ...params }, request })
      return answer
    },
    count: () => undefined,
    errorResponse: () => ({ status: 500, headers: {}, body: '{}' }),
    onError: (error) => {
      throw error
    },
  }
  return { host, calls, envelope }
}

describe('a source tool call', () => {
  it('calls the operation in process, as the client that posted, and gives its envelope and bytes as the result', async () => {
    const { host, calls, envelope } = invokingHost()
    const answer = mcpServers().attach(host)
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'get_tide', arguments: { harbour: 'Bergen', limit: 3, note: null } },
    })
    const request: GatewayRequest = {
      method: 'POST',
      path: '/tidevann/mcp',
      query: '',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      clientAddress: '10.0.0.7',
      readBody: () => Promise.resolve(body),
    }
    const res = await answer({ request, links, sourceId: 'tidevann' })
    const { result } = JSON.parse(res.body!)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.target).toEqual({ source: 'tidevann', operation: 'get_tide' })
    expect(calls[0]!.params).toEqual({ harbour: 'Bergen', limit: 3 })
    expect(calls[0]!.request.clientAddress).toBe('10.0.0.7')
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(envelope) }],
      structuredContent: envelope,
      isError: false,
    })
  })
})
