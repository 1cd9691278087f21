import type { GatewayRequest, GatewayResponse } from '@allmenning/core'
import { conformanceNames } from './conformance-source.js'
import { postJson } from './conformance-http.js'
import type { AdapterConformanceCase } from './adapter-conformance-context.js'

/** The header the suite's `onResponse` hook puts on every answer, and its value. */
export const exitHeader = 'x-conformance-exit'
/** A request carrying this header is refused by the suite's hook with a 403 of its own. */
export const refuseHeader = 'x-conformance-refuse'
/** The JSON answer to a request carrying this header gets a field from the suite's hook, changed in the copy it is given. */
export const rewriteHeader = 'x-conformance-rewrite'

const refusalBody = JSON.stringify({ error: { status: 403, code: 'refused_by_host', message: 'Refused by the host' } })

/**
 * The suite's `onResponse`: marks every answer with the status it had before the hook; adds a
 * field to the body of a JSON answer whose request asks for it, in the copy it is given (a
 * cached answer's bytes are then not the body's); and rewrites the answer to a request that asks
 * for it into a 403, as a host's auth check would.
 */
export function conformanceExit(response: GatewayResponse, request: GatewayRequest): GatewayResponse | void {
  response.headers[exitHeader] = String(response.status)
  if (request.headers[rewriteHeader] !== undefined && response.body?.startsWith('{')) {
    response.body = `{"rewritten_by_host":true,${response.body.slice(1)}`
    response.headers['content-length'] = String(Buffer.byteLength(response.body))
  }
  if (request.headers[refuseHeader] === undefined) return
  return {
    status: 403,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(refusalBody)),
      'cache-control': 'no-store',
      [exitHeader]: String(response.status),
    },
    body: refusalBody,
  }
}

const { source, operation } = conformanceNames
const op = `/api/v1/kilder/${source}/${operation}`

/** Cases that hold the one exit: every answer the gateway gives passes the host's hook, once. */
export const oneExitCases: AdapterConformanceCase[] = [
  {
    name: "onResponse: every answer of the gateway passes the host's hook, with the status it had",
    async run(ctx) {
      const { expect } = ctx
      const first = await ctx.get(`${op}?area=NO2`)
      const hit = await ctx.get(`${op}?area=NO2`)
      const answers: [string, Awaited<ReturnType<typeof ctx.get>>, number][] = [
        ['an operation', first, 200],
        ['a cache hit', hit, 200],
        ['a 304', await ctx.get(`${op}?area=NO2`, { headers: { 'if-none-match': String(hit.headers.etag) } }), 200],
        ['a HEAD', await ctx.get(`${op}?area=NO2`, { method: 'HEAD' }), 200],
        ['a 400', await ctx.get(`${op}?limit=0`), 400],
        ['a 404 under /api', await ctx.get('/api/v1/nope'), 404],
        ['a 405', await ctx.get(op, { method: 'DELETE' }), 405],
        ['discovery', await ctx.get('/api/v1/'), 200],
        ['the explorer', await ctx.get('/api/v1/docs'), 200],
        ['feedback', await ctx.get('/api/v1/feedback', postJson('{"message":"Fine"}')), 202],
      ]
      for (const [what, reply, status] of answers) expect(reply.headers[exitHeader], what).toBe(String(status))
      // The 304 is made after the hook: what the hook added reaches it, and it is still a 304.
      expect(answers[2]![1].status).toBe(304)
    },
  },
  {
    name: 'onResponse: a host may rewrite any answer (a 403 instead of a 200, a HEAD without its body)',
    async run(ctx) {
      const { expect } = ctx
      const refused = await ctx.get(`${op}?area=NO4`, { headers: { [refuseHeader]: '1' } })
      expect(refused.status).toBe(403)
      expect(ctx.json(refused).error.code).toBe('refused_by_host')
      expect(refused.headers[exitHeader]).toBe('200')
      ctx.expectLengthMatches(refused)
      const head = await ctx.get(`${op}?area=NO4`, { method: 'HEAD', headers: { [refuseHeader]: '1' } })
      expect(head.status).toBe(403)
      expect(head.body).toBe('')
      // The hook's answer was given once; the next request without the header is the source's.
      expect((await ctx.get(`${op}?area=NO4`)).status).toBe(200)
    },
  },
  {
    name: "onResponse: a body the host's hook changed is what goes out, on a cache hit too",
    async run(ctx) {
      const { expect } = ctx
      const plain = await ctx.get(`${op}?area=NO5`)
      for (const reply of [
        await ctx.get(`${op}?area=NO5`, { headers: { [rewriteHeader]: '1' } }),
        await ctx.get(`${op}?area=NO5`, { headers: { [rewriteHeader]: '1' } }),
      ]) {
        expect(reply.status).toBe(200)
        expect(String(reply.headers['cache-status'])).toMatch(/hit/)
        expect(ctx.json(reply)).toEqual({ rewritten_by_host: true, ...ctx.json(plain) })
        ctx.expectLengthMatches(reply)
      }
      // And the next answer without the header is the cached one, as it was.
      expect((await ctx.get(`${op}?area=NO5`)).body).toBe(plain.body)
    },
  },
  {
    name: "onResponse: a path the gateway does not own never reaches the gateway's hook",
    async run(ctx) {
      const reply = await ctx.get('/elsewhere')
      ctx.expect(reply.status).toBe(404)
      ctx.expect(reply.headers[exitHeader]).toBeUndefined()
    },
    exception: {
      quirk: 'noHostApp',
      async run(ctx) {
        // No host app: the gateway's own 404 for it leaves through the same exit.
        const reply = await ctx.get('/elsewhere')
        ctx.expectError(reply, 404, 'route_not_found')
        ctx.expect(reply.headers[exitHeader]).toBe('404')
      },
    },
  },
]
