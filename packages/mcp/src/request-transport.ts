import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js'

/** One request on its way through the server: whose it is, and where its answer goes. */
interface Pending<C> {
  /** The id the client gave it, put back on the answer. */
  clientId: RequestId
  context: C
  /** Set by a handler that wrote its result as JSON already, so it is not serialized again. */
  resultJson?: string
  resolve(json: string): void
}

/**
 * An MCP transport (the SDK's `Transport` interface) that lets one long-lived SDK server
 * answer the requests of many HTTP POSTs at once, with no session between them. The SDK's own
 * Streamable HTTP transport, in stateless mode, takes one POST and must be made anew, with a
 * new server and every tool registered again, for each request; this one is made once per
 * server. Each request is handed to the server under an id of the transport's own, since two
 * clients may both send id 1 at the same time; the answer is matched back by that id, given
 * the client's id again, and handed to the POST that asked, as JSON.
 *
 * Each request carries a context (the POST it came in) that a handler reads by the id the
 * SDK gives it (`extra.requestId`): see {@link RequestTransport.context}.
 *
 * @example
 * const transport = new RequestTransport<CallContext>()
 * await server.connect(transport)
 * const json = await transport.exchange({ jsonrpc: '2.0', id: 1, method: 'ping' }, context)
 */
export class RequestTransport<C> implements Transport {
  onmessage?: Transport['onmessage']
  onclose?: () => void
  onerror?: (error: Error) => void

  private readonly pending = new Map<number, Pending<C>>()
  private nextId = 0

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.()
  }

  /** Hands one request to the server; resolves with its JSON-RPC response, under the client's id, as JSON. */
  exchange(request: JSONRPCRequest, context: C): Promise<string> {
    // Ids stay small integers: wrapping around after 2^31 cannot meet a request still pending.
    const id = (this.nextId = (this.nextId + 1) % 0x7fffffff)
    return new Promise<string>((resolve) => {
      this.pending.set(id, { clientId: request.id, context, resolve })
      this.onmessage!({ ...request, id })
    })
  }

  /** The context of a request the server is answering, by the id the server knows it by. */
  context(id: RequestId): C | undefined {
    return this.pending.get(id as number)?.context
  }

  /** Lets a handler give its result's JSON, made once per answer and shared by calls (a cache hit's). */
  setResultJson(id: RequestId, json: string): void {
    const pending = this.pending.get(id as number)
    if (pending) pending.resultJson = json
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // A stateless tools-only server sends nothing but responses: no requests, and notifications
    // only about requests (progress) that no client of a one-shot POST could follow.
    if (!('id' in message) || 'method' in message) return
    const pending = this.pending.get(message.id as number)
    if (!pending) return
    this.pending.delete(message.id as number)
    const id = JSON.stringify(pending.clientId)
    if ('result' in message && pending.resultJson !== undefined) {
      pending.resolve(`{"jsonrpc":"2.0","id":${id},"result":${pending.resultJson}}`)
      return
    }
    pending.resolve(JSON.stringify({ ...message, id: pending.clientId }))
  }
}
