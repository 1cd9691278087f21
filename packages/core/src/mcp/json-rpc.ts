/** JSON-RPC 2.0 error codes the MCP endpoints answer with. */
export const rpcErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Transport-level refusals (media type, Accept, Origin, protocol version), as the MCP SDKs use it. */
  transport: -32000,
} as const

/** A request id: a string or a number, never null in MCP. */
export type RpcId = string | number

/** One incoming JSON-RPC message, sorted by what the server must do with it. */
export type RpcMessage =
  | { kind: 'request'; id: RpcId; method: string; params: Record<string, unknown> | undefined }
  /** Answered with nothing; a notification the server does not know is ignored. */
  | { kind: 'notification'; method: string }
  /** A client's answer to a server request; this server sends none, so it is only accepted. */
  | { kind: 'response' }
  /** Not JSON-RPC 2.0: answered with -32600 (or -32602 for params that are not an object). */
  | { kind: 'invalid'; id: RpcId | null; code: number; message: string }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isId = (value: unknown): value is RpcId => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))

/**
 * Sorts one parsed JSON value into a request, a notification, a response or an invalid message,
 * by the rules of JSON-RPC 2.0 and MCP (ids are strings or numbers, params an object).
 *
 * @example
 * classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }) // { kind: 'request', id: 1, method: 'ping', params: undefined }
 * classifyMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }).kind // 'notification'
 */
export function classifyMessage(value: unknown): RpcMessage {
  if (!isObject(value)) return { kind: 'invalid', id: null, code: rpcErrorCodes.invalidRequest, message: 'Invalid Request: a JSON-RPC message must be an object' }
  const id = isId(value.id) ? value.id : null
  const invalid = (message: string, code: number = rpcErrorCodes.invalidRequest): RpcMessage => ({ kind: 'invalid', id, code, message: `Invalid Request: ${message}` })
  if (value.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"')
  if ('id' in value && value.id !== undefined && id === null) return invalid('"id" must be a string or a number')
  if (!('method' in value)) {
    if (id !== null && ('result' in value || 'error' in value)) return { kind: 'response' }
    return invalid('a message needs a "method" (a request or notification) or a "result" or "error" with an "id" (a response)')
  }
  if (typeof value.method !== 'string' || value.method === '') return invalid('"method" must be a non-empty string')
  const params = value.params
  if (params !== undefined && !isObject(params)) {
    return Array.isArray(params)
      ? { kind: 'invalid', id, code: rpcErrorCodes.invalidParams, message: 'Invalid params: MCP params are an object, not an array' }
      : invalid('"params" must be an object')
  }
  if (id === null) return { kind: 'notification', method: value.method }
  return { kind: 'request', id, method: value.method, params }
}

/**
 * A JSON-RPC success response around a result already serialized, so a large tool result is
 * never parsed and serialized again.
 */
export function rpcResult(id: RpcId, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`
}

/**
 * A JSON-RPC error response; `data` carries the gateway's own error object where there is one.
 *
 * @example
 * rpcError(7, rpcErrorCodes.methodNotFound, 'Method not found: resources/list')
 */
export function rpcError(id: RpcId | null, code: number, message: string, data?: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } })
}
