import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions, type GatewayRequest } from '../index.js'
import { defineOperation, defineSource, defineUpstream } from '../source.js'
import type { ExtensionHost } from '../extension.js'

const almanac = defineUpstream({
  id: 'almanac',
  name: 'Almanac',
  baseUrl: 'http://127.0.0.1:9',
  publisher: 'Almanakk AS',
})
let runs = 0
const sun = defineSource({
  id: 'sol',
  name: 'Sun',
  description: 'Sunrise.',
  documentation: 'https://sol.example.no',
  topic: 'weather',
  keywords: ['sun'],
  contentLanguages: ['en'],
  cacheTtlSeconds: 60,
  upstreams: [almanac],
  operations: [
    defineOperation({
      name: 'get_sunrise',
      description: 'Sunrise at a place.',
      parameters: { place: v.pipe(v.string(), v.minLength(2)) },
      output: v.object({ place: v.string(), at: v.string() }),
      async run(params, ctx) {
        ctx.upstream(almanac)
        runs++
        return { data: { place: params.place, at: '08:12' } }
      },
    }),
  ],
})

/** A gateway with an extension that only keeps the host it is lent. */
function hostOf(options: Partial<GatewayOptions> = {}): ExtensionHost {
  let lent: ExtensionHost | undefined
  createGateway({
    sources: [sun],
    onError: () => {},
    ...options,
    extensions: [
      {
        name: 'probe',
        summary: { gateway: 'probe', source: 'probe' },
        attach: (host) => ((lent = host), async () => ({ status: 204, headers: {}, body: null })),
      },
    ],
  })
  return lent!
}

const request = (clientAddress = '10.1.1.1'): GatewayRequest => ({
  method: 'POST',
  path: '/probe',
  query: '',
  headers: {},
  clientAddress,
})
const target = { source: 'sol', operation: 'get_sunrise' }

describe("an extension host's in-process call", () => {
  it('answers with the envelope as a value and as the bytes its GET would send', async () => {
    const host = hostOf()
    const answer = await host.invoke(request(), target, { place: 'Tromsø' })
    expect(answer.status).toBe(200)
    expect(answer.value).toMatchObject({ source: 'sol', data: { place: 'Tromsø', at: '08:12' } })
    expect(JSON.parse(answer.body)).toEqual(answer.value)
  })

  it('counts against the rate limit as the GET it stands for, and answers 429 over it', async () => {
    const host = hostOf({ rateLimit: { quota: { requests: 1, windowSeconds: 60 } } })
    expect((await host.invoke(request(), target, { place: 'Bodø' })).status).toBe(200)
    const before = runs
    const over = await host.invoke(request(), target, { place: 'Narvik' })
    expect(over.status).toBe(429)
    expect(over.value).toMatchObject({ error: { status: 429, code: 'rate_limited' } })
    expect(runs).toBe(before)
    // A bad call is refused before it is counted, as its GET would be.
    expect((await host.invoke(request('10.2.2.2'), target, { place: 'x' })).status).toBe(400)
    expect((await host.invoke(request('10.2.2.2'), target, { place: 'Alta' })).status).toBe(200)
  })

  it('answers failures in the shared error body: an unknown operation, a parameter, a query too long for its GET', async () => {
    const host = hostOf()
    expect((await host.invoke(request(), { source: 'sol', operation: 'get_sunset' }, {})).value).toMatchObject({
      error: { status: 404, code: 'operation_not_found' },
    })
    expect((await host.invoke(request(), target, { place: 'x' })).value).toMatchObject({
      error: { status: 400, details: [{ parameter: 'place', rule: 'min_length' }] },
    })
    const long = await host.invoke(request(), target, { place: 'æ'.repeat(700) })
    expect(long.value).toMatchObject({ error: { status: 414, code: 'query_too_long' } })
    expect(long.body).toContain('The query string is 4206 characters long')
  })
})

describe("an extension's own fixed paths", () => {
  const probe = (paths: { name: string; path: string; summary: string }[], seen: (string | undefined)[] = []) => ({
    name: 'probe',
    summary: { gateway: 'probe', source: 'probe' },
    paths,
    attach: () => async (call: { path?: string; sourceId?: string }) => {
      seen.push(call.path ?? call.sourceId ?? 'own')
      return { status: 204, headers: {}, body: null }
    },
  })

  it('answers each before /{source}/{name} would take it, naming the path in the call', async () => {
    const seen: (string | undefined)[] = []
    const gateway = createGateway({
      sources: [sun],
      onError: () => {},
      extensions: [probe([{ name: 'probe_elsewhere', path: '/elsewhere/probe', summary: 'x' }], seen)],
    })
    const post = (path: string) => gateway.handle({ method: 'POST', path, query: '', headers: {} })
    expect((await post('/elsewhere/probe')).status).toBe(204)
    expect((await post('/sol/probe')).status).toBe(204)
    expect((await post('/probe')).status).toBe(204)
    expect((await post('/other/probe')).status).toBe(404)
    expect(seen).toEqual(['probe_elsewhere', 'sol', 'own'])
  })

  it('refuses a path that is not one, at start-up', () => {
    expect(() =>
      createGateway({ sources: [sun], extensions: [probe([{ name: 'Bad Name', path: '/x/probe', summary: 'x' }])] }),
    ).toThrow(/an extra path needs a snake_case name/)
    expect(() =>
      createGateway({ sources: [sun], extensions: [probe([{ name: 'ok', path: 'x/{source}', summary: 'x' }])] }),
    ).toThrow(/an extra path needs/)
  })
})
