import type { Gateway } from '@allmenning/core'
import type { Explorer } from '@allmenning/core/extension'
import type { ConformanceExpect } from './conformance-runner.js'
import type { ConformanceReply, ConformanceSend } from './conformance-http.js'

/**
 * What a platform may do before the gateway sees a request, so that the gateway's own answer
 * cannot come through. An adapter declares the ones that apply with the reason; each excepted
 * case then asserts what such a platform answers instead, and keeps its name with the reason.
 */
export type AdapterQuirk =
  /** Only the last value of a repeated query key arrives (AWS ALB without multi-value headers). */
  | 'dropsRepeatedQueryKeys'
  /** `%2F` inside a path segment arrives as a real `/` (API Gateway HTTP APIs). */
  | 'decodesEncodedSlash'
  /** Query values arrive decoded, so a malformed escape is literal text (API Gateway REST APIs). */
  | 'decodesQueryValues'
  /** A front end refuses a long request line (16 KB) with 431 before the gateway runs. */
  | 'capsRequestLine'
  /** The host app's JSON body parser reads the body first; its own errors and limits apply. */
  | 'hostParsesJson'
  /** No host app: the gateway answers every path, its own JSON 404 included. */
  | 'noHostApp'

/** Everything a case gets: where the server is, how to call it, and assertions bound to the runner. */
export interface AdapterConformanceContext {
  /** What clients put before `/api/…`: origin plus mount path, stage or base path. */
  base: string
  /** `http://127.0.0.1:<port>`, for paths outside the gateway. */
  origin: string
  /** The public path prefix: `/data`, `/prod` or ''. */
  prefix: string
  /** The quirks the adapter declared. */
  quirks: Partial<Record<AdapterQuirk, string>>
  /** The explorer the gateway serves. */
  explorer: Explorer
  /** The gateway the server serves, to compare an answer with the one it gives in process. */
  gateway: Gateway
  /** What the host app's 404 for a path nobody serves looks like; undefined without a host app. */
  hostNotFoundType: RegExp | undefined
  expect: ConformanceExpect
  /** Sends a request to `base + path`. */
  get(path: string, init?: ConformanceSend): Promise<ConformanceReply>
  /** Sends a request to an absolute URL. */
  send(url: string, init?: ConformanceSend): Promise<ConformanceReply>
  /** Asserts the JSON content type and parses the body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(reply: ConformanceReply): any
  /** Asserts that Content-Length, when sent, is the byte length of the body. */
  expectLengthMatches(reply: ConformanceReply): void
  /** Asserts the one error body (status, code, message without a stack, links under the prefix) and returns it parsed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  expectError(reply: ConformanceReply, status: number, code: string): any
}

/**
 * One case of the suite. Give your own in `options.cases` (an extension's endpoints, say);
 * `exception` names the quirk under which the case asserts something else, and what.
 *
 * @example
 * const ping: AdapterConformanceCase = {
 *   name: 'GET /api/v1/ answers 200',
 *   async run(ctx) { ctx.expect((await ctx.get('/api/v1/')).status).toBe(200) },
 * }
 */
export interface AdapterConformanceCase {
  name: string
  run(ctx: AdapterConformanceContext): Promise<void>
  exception?: { quirk: AdapterQuirk; run(ctx: AdapterConformanceContext): Promise<void> }
}
