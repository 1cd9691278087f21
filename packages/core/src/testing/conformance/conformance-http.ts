import { request, type IncomingHttpHeaders } from 'node:http'

/** One answer as the client saw it: status, headers, and the body as UTF-8 text. */
export interface ConformanceReply {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** What to send: method (GET by default), headers (an array sends the header on several lines), body. */
export interface ConformanceSend {
  method?: string
  headers?: Record<string, string | string[]>
  body?: string
}

/**
 * Sends one request with node:http rather than fetch, so the path and query go out byte for
 * byte as written (fetch would normalize them).
 *
 * @example
 * const reply = await sendRequest('http://127.0.0.1:3000/api/v1/', { method: 'HEAD' })
 */
export function sendRequest(url: string, init: ConformanceSend = {}): Promise<ConformanceReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(init.body)
  })
}

/** A JSON POST. */
export const postJson = (body: string): ConformanceSend => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
})

/** A POST to an MCP endpoint as the Streamable HTTP transport has clients send it. */
export const postRpc = (message: unknown, headers: Record<string, string> = {}): ConformanceSend => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: typeof message === 'string' ? message : JSON.stringify(message),
})

/** A JSON-RPC request. */
export const rpc = (id: number, method: string, params?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
})
