import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FakeReply } from './fake-reply.js'

export type { FakeReply } from './fake-reply.js'

/**
 * Answers one route. `params` holds the `{name}` segments of a pattern route, decoded.
 * Throwing answers 500 with the message, so a broken fake shows up as an upstream failure.
 */
export type FakeRoute = (
  url: URL,
  req: IncomingMessage,
  params: Record<string, string>,
) => FakeReply | Promise<FakeReply>

/** One request a fake received. */
export interface FakeRequest {
  method: string
  /** Path below the fake's prefix. */
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  /** The route that answered it (`/enheter/{orgnr}`), or undefined for a 404 or the fallback. */
  route: string | undefined
}

export interface FakeUpstreamOptions {
  /** Path prefix the fake serves under (`/enhetsregisteret/api`); it is part of `baseUrl`. */
  prefix?: string
  /** Answers the paths no route matches; a plain 404 when left out. */
  fallback?: FakeRoute
}

export interface FakeUpstream {
  /** `http://127.0.0.1:<port>` plus the prefix the fake serves under. */
  baseUrl: string
  /** Every request received, as full path with query, oldest first. */
  requests: string[]
  /** Every request received, parsed, oldest first. */
  received: FakeRequest[]
  /**
   * Adds or replaces a route. A path is matched exactly; `{name}` segments match any one
   * segment and reach the handler as `params.name`; `*` answers every path no other route
   * matches. Exact routes win over patterns, patterns over `*`.
   */
  route(path: string, handler: FakeRoute): void
  /** How many requests a route answered (by the path it was added under), or all requests when no path is given. */
  hits(route?: string): number
  /**
   * Answers every route (or only `route`) with `reply` instead, for the next `times` requests
   * or until called with `undefined`. Unknown paths keep answering 404.
   */
  failWith(reply: FakeReply | undefined, options?: { times?: number; route?: string }): void
  close(): Promise<void>
}

interface Pattern {
  key: string
  segments: string[]
}

function matchPattern(pattern: Pattern, path: string): Record<string, string> | undefined {
  const segments = path.split('/')
  if (segments.length !== pattern.segments.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < segments.length; i++) {
    const expected = pattern.segments[i]!
    const actual = segments[i]!
    if (expected.startsWith('{') && expected.endsWith('}')) {
      if (actual === '') return undefined
      try {
        params[expected.slice(1, -1)] = decodeURIComponent(actual)
      } catch {
        return undefined
      }
    } else if (expected !== actual) {
      return undefined
    }
  }
  return params
}

const notFound: FakeReply = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not Found' }

/**
 * Starts a local HTTP server on 127.0.0.1 that plays an upstream service: each route answers
 * with the status, headers and bytes the real service sends (see `fakeReply`), or plays a
 * slow, hanging or broken service. Unknown paths answer 404, like the real services do.
 * Every request is recorded, and `hits` counts them per route.
 *
 * @example
 * const met = await startFakeUpstream({
 *   '/compact': () => fakeReply.json(forecast),
 *   '/stations/{id}': (_url, _req, { id }) => (id === 'SN18700' ? fakeReply.json(station) : fakeReply.status(404)),
 * })
 * createGateway({ sources: [weather()], upstreams: { met: { baseUrl: met.baseUrl } } })
 * met.failWith(fakeReply.status(503), { times: 1 })
 * expect(met.hits('/compact')).toBe(1)
 * await met.close()
 */
export async function startFakeUpstream(
  routes: Record<string, FakeRoute> = {},
  options: FakeUpstreamOptions | string = {},
): Promise<FakeUpstream> {
  const prefix = typeof options === 'string' ? options : (options.prefix ?? '')
  const fallback = typeof options === 'string' ? undefined : options.fallback
  const exact = new Map<string, FakeRoute>()
  const patterns: Pattern[] = []
  const handlers = new Map<string, FakeRoute>()
  const requests: string[] = []
  const received: FakeRequest[] = []
  let forced: { reply: FakeReply; remaining: number | undefined; route: string | undefined } | undefined

  function addRoute(path: string, handler: FakeRoute): void {
    handlers.set(path, handler)
    if (!path.includes('{')) {
      exact.set(path, handler)
    } else if (!patterns.some((p) => p.key === path)) {
      patterns.push({ key: path, segments: path.split('/') })
    }
  }
  for (const [path, handler] of Object.entries(routes)) addRoute(path, handler)

  function find(
    path: string,
  ): { key: string | undefined; handler: FakeRoute; params: Record<string, string> } | undefined {
    const direct = exact.get(path)
    if (direct) return { key: path, handler: direct, params: {} }
    for (const pattern of patterns) {
      const params = matchPattern(pattern, path)
      if (params) return { key: pattern.key, handler: handlers.get(pattern.key)!, params }
    }
    // `*` answers every path nothing else matches, for services that carry parameters in the
    // path, such as FIRMS's /area/csv/{key}/{source}/{area}/{days}.
    const any = exact.get('*')
    if (any) return { key: '*', handler: any, params: {} }
    return fallback ? { key: undefined, handler: fallback, params: {} } : undefined
  }

  function forcedReply(route: string | undefined): FakeReply | undefined {
    if (!forced || (forced.route !== undefined && forced.route !== route)) return undefined
    const { reply } = forced
    if (forced.remaining !== undefined && --forced.remaining <= 0) forced = undefined
    return reply
  }

  async function answer(url: URL, req: IncomingMessage, path: string): Promise<FakeReply> {
    const found = find(path)
    received.push({
      method: req.method ?? 'GET',
      path,
      query: url.searchParams,
      headers: req.headers,
      route: found?.key,
    })
    if (!found) return notFound
    const override = forcedReply(found.key)
    if (override) return override
    try {
      return await found.handler(url, req, found.params)
    } catch (error) {
      return {
        status: 500,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: `The fake route ${found.key ?? '(fallback)'} threw: ${String(error)}`,
      }
    }
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    requests.push(url.pathname + url.search)
    const path = prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname
    const reply = await answer(url, req, path)
    if (reply.hang) return // closeAllConnections() ends it when the fake closes
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
    if (reply.destroy) {
      req.socket.destroy()
      return
    }
    if (res.destroyed) return
    res.writeHead(reply.status ?? 200, reply.headers ?? {})
    res.end(req.method === 'HEAD' ? undefined : (reply.body ?? ''))
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    requests,
    received,
    route: addRoute,
    hits: (route) => (route === undefined ? received.length : received.filter((r) => r.route === route).length),
    failWith(reply, failOptions = {}) {
      forced = reply === undefined ? undefined : { reply, remaining: failOptions.times, route: failOptions.route }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
