/**
 * One HTTP exchange with an upstream, as the upstream client needs it: the request goes out,
 * the answer's status and head come back, and the body is read (or discarded) by the caller.
 * Two carry it: Node's own HTTP client by default ({@link nodeHttpTransport}), and undici when a
 * deployment gives a dispatcher of its own (a proxy, a pool, a mock; {@link undiciTransport}).
 * The client alone sets time limits: `signal` ends the exchange, head or body, when it aborts.
 */
export type UpstreamTransport = (url: string, request: TransportRequest) => Promise<TransportAnswer>

export interface TransportRequest {
  method: 'GET' | 'POST'
  headers: Record<string, string>
  /** The request body, already encoded; none for a GET. */
  body?: string
  /** Aborts the exchange: connecting, waiting for the head, or reading the body. */
  signal: AbortSignal
}

export interface TransportAnswer {
  status: number
  /** Header names in lower case, as Node and undici give them. */
  headers: Record<string, string | string[] | undefined>
  /** The body, chunk by chunk; read it once, or call `discard`. */
  body: AsyncIterable<Buffer>
  /** Gives up the rest of the body, failing never: a connection still owed part of it is closed, not reused. */
  discard(): Promise<void>
}
