import { createGateway, type Gateway } from '@allmenning/core'
import type { Explorer, GatewayExtension } from '@allmenning/core/extension'
import type { FakeUpstream } from '../fake-upstream.js'
import type { ConformanceRunner } from './conformance-runner.js'
import { sendRequest, type ConformanceReply } from './conformance-http.js'
import { conformanceExplorer, conformanceSource, startConformanceUpstream } from './conformance-source.js'
import { adapterConformanceCases } from './adapter-conformance-cases.js'
import { conformanceExit, oneExitCases } from './one-exit-cases.js'
import type { AdapterConformanceCase, AdapterConformanceContext, AdapterQuirk } from './adapter-conformance-context.js'

/** A server the adapter under test started around the gateway it was given. */
export interface StartedAdapterServer {
  /** What clients put before `/api/…`: `http://127.0.0.1:<port>` plus the mount path (`/data`), stage or base path. */
  url: string
  close(): Promise<void>
}

/**
 * Starts a server that serves `gateway` through the adapter under test and answers its URL.
 * Listen on 127.0.0.1 and port 0. Node's default header limit (16 KB) refuses the suite's
 * 16 KB query with 431: raise `maxHeaderSize` (64 KB), or declare the `capsRequestLine` quirk.
 */
export type StartAdapterServer = (gateway: Gateway) => Promise<StartedAdapterServer>

/**
 * Options of {@link runAdapterConformance}: what the adapter and its host app do.
 *
 * @example
 * const options: AdapterConformanceOptions = { name: 'fastify /data', publicPrefix: '/data', hostApp: { notFoundType: /^application\/json/ } }
 */
export interface AdapterConformanceOptions {
  /** Title of the suite's `describe` block. Default `adapter conformance`. */
  name?: string
  /** The path prefix `url` carries (`/data`, a stage `/prod`, or '' at the root); checked when given. */
  publicPrefix?: string
  /**
   * The host app around the gateway, when there is one: it must answer `GET /health` at the
   * server's root with `{"status":"ok"}` and any other path it does not serve with its own 404,
   * whose Content-Type `notFoundType` matches. Leave it out only with the `noHostApp` quirk.
   */
  hostApp?: { notFoundType: RegExp }
  /** The platform's quirks that apply, each with the reason it cannot give the gateway's answer. */
  quirks?: Partial<Record<AdapterQuirk, string>>
  /** The explorer to serve; by default one of the suite's own, with a large multi-byte script. */
  explorer?: Explorer
  /** Extensions to add to the gateway (MCP, say), with `cases` that check their endpoints. */
  extensions?: GatewayExtension[]
  /** More cases, run after the suite's own in the same server. */
  cases?: AdapterConformanceCase[]
}

const jsonType = 'application/json; charset=utf-8'

/**
 * Defines the adapter conformance suite: about forty cases sent as real HTTP requests through
 * your adapter to a gateway over the suite's own source and fake upstream (routes, methods,
 * HEAD, 304, every error status, mount path, headers, bodies, the explorer, discovery,
 * feedback, and what happens to paths the gateway does not own). Call it at the top level of
 * a test file; it defines a `describe` block with one test per case, using the runner you
 * give, so it runs under vitest or Jest alike.
 *
 * @example
 * import { createServer } from 'node:http'
 * import { afterAll, beforeAll, describe, expect, it } from 'vitest'
 * import type { IncomingMessage, ServerResponse } from 'node:http'
 * import type { Gateway } from '@allmenning/core'
 * import { runAdapterConformance } from '@allmenning/core/conformance'
 *
 * declare function myAdapter(gateway: Gateway): (req: IncomingMessage, res: ServerResponse) => void
 *
 * runAdapterConformance({ describe, it, expect, beforeAll, afterAll }, async (gateway) => {
 *   const server = createServer({ maxHeaderSize: 64 * 1024 }, myAdapter(gateway))
 *   await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
 *   const { port } = server.address() as { port: number }
 *   return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
 * }, { quirks: { noHostApp: 'the adapter answers every path itself' } })
 */
export function runAdapterConformance(
  runner: ConformanceRunner,
  start: StartAdapterServer,
  options: AdapterConformanceOptions = {},
): void {
  const { expect } = runner
  const quirks = options.quirks ?? {}
  if (!options.hostApp && quirks.noHostApp === undefined) {
    throw new TypeError('runAdapterConformance: give options.hostApp, or declare quirks.noHostApp with its reason')
  }
  const explorer = options.explorer ?? conformanceExplorer()
  let upstream: FakeUpstream | undefined
  let server: StartedAdapterServer | undefined
  const ctx = {} as AdapterConformanceContext

  runner.describe(options.name ?? 'adapter conformance', () => {
    runner.beforeAll(async () => {
      upstream = await startConformanceUpstream()
      const gateway = createGateway({
        sources: [conformanceSource()],
        upstreams: { gridflow: { baseUrl: upstream.baseUrl } },
        explorer,
        ...(options.extensions ? { extensions: options.extensions } : {}),
        onError: () => {},
        onFeedback: () => {},
        onResponse: conformanceExit,
      })
      server = await start(gateway)
      Object.assign(ctx, createContext(runner, server.url, quirks, explorer, options.hostApp?.notFoundType), {
        gateway,
      })
    })
    runner.afterAll(async () => {
      await server?.close()
      await upstream?.close()
    })

    runner.it('serves under the expected public prefix', () => {
      expect(ctx.prefix).toMatch(/^(\/[^/?#]+)*$/)
      if (options.publicPrefix !== undefined) expect(ctx.prefix).toBe(options.publicPrefix)
    })
    for (const c of [...adapterConformanceCases, ...oneExitCases, ...(options.cases ?? [])]) {
      const reason = c.exception ? quirks[c.exception.quirk] : undefined
      if (c.exception && reason !== undefined) {
        const exception = c.exception
        runner.it(`${c.name} — documented exception: ${reason}`, () => exception.run(ctx))
      } else runner.it(c.name, () => c.run(ctx))
    }
  })
}

function createContext(
  runner: ConformanceRunner,
  url: string,
  quirks: Partial<Record<AdapterQuirk, string>>,
  explorer: Explorer,
  hostNotFoundType: RegExp | undefined,
): Omit<AdapterConformanceContext, 'gateway'> {
  const { expect } = runner
  const base = url.replace(/\/$/, '')
  const origin = new URL(base).origin
  const prefix = base.slice(origin.length)
  const json = (reply: ConformanceReply) => {
    expect(reply.headers['content-type']).toBe(jsonType)
    return JSON.parse(reply.body)
  }
  const expectLengthMatches = (reply: ConformanceReply) => {
    expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(reply.body)))
  }
  return {
    base,
    origin,
    prefix,
    quirks,
    explorer,
    hostNotFoundType,
    expect,
    get: (path, init) => sendRequest(`${base}${path}`, init),
    send: sendRequest,
    json,
    expectLengthMatches,
    expectError(reply, status, code) {
      expect(reply.status, reply.body.slice(0, 200)).toBe(status)
      const body = json(reply)
      expectLengthMatches(reply)
      expect(reply.headers['cache-control']).toBe('no-store')
      expect(reply.headers.etag).toBeUndefined()
      expect(Object.keys(body)).toEqual(['error', '_meta', '_links'])
      expect(body.error).toMatchObject({ status, code })
      expect(body.error.message).toEqual(expect.any(String))
      expect(body.error.message).not.toMatch(/\n\s+at /)
      expect(body._links).toEqual({ api_index: `${prefix}/api/v1/`, openapi: `${prefix}/api/v1/openapi.json` })
      return body
    },
  }
}
