import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defineOperation, defineSource, defineUpstream } from '../source.js'
import { createTestGateway, fakeReply, startFakeUpstream, type FakeUpstream } from '../testing/index.js'
import { bodyBytes } from './body-bytes.js'
import type { GatewayResponse, ResponseHook } from './gateway-request.js'

const lighthouses = defineUpstream({
  id: 'fyr',
  name: 'Lighthouse register',
  baseUrl: 'https://fyr.example.no',
  publisher: 'Fyrvesenet',
})

const getLighthouse = defineOperation({
  name: 'get_lighthouse',
  description: 'One lighthouse by name.',
  parameters: { name: v.string() },
  output: v.object({ name: v.string(), lit: v.number() }),
  async run(params, ctx) {
    return {
      data: (await ctx.upstream(lighthouses).getJson<{ name: string; lit: number }>(`/fyr/${params.name}`)).body,
    }
  },
})

const source = defineSource({
  id: 'fyr',
  name: 'Lighthouses',
  description: 'Norwegian lighthouses.',
  documentation: 'https://fyr.example.no/doc',
  topic: 'transport',
  keywords: ['lighthouse'],
  contentLanguages: ['nb'],
  cacheTtlSeconds: 60,
  upstreams: [lighthouses],
  operations: [getLighthouse],
})

let fake: FakeUpstream
beforeAll(async () => {
  // Letters outside ASCII, so the bytes are not the text's UTF-16 units.
  fake = await startFakeUpstream({
    '/fyr/{name}': () => fakeReply.json({ name: 'Lindesnes fyr, Sør-Norge', lit: 1656 }),
  })
})
afterAll(() => fake.close())

const path = '/api/v1/kilder/fyr/get_lighthouse'
const gatewayWith = (onResponse?: ResponseHook) =>
  createTestGateway({ sources: source, upstreams: { fyr: fake }, ...(onResponse ? { onResponse } : {}) })

describe('bodyBytes', () => {
  it('gives the bytes only while the body is the text they were made from', () => {
    const bytes = Buffer.from('{"a":"æ"}')
    const answer: GatewayResponse = {
      status: 200,
      headers: {},
      body: '{"a":"æ"}',
      encoded: { text: '{"a":"æ"}', bytes },
    }
    expect(bodyBytes(answer)).toBe(bytes)
    expect(bodyBytes({ ...answer, body: '{"a":"ø"}' })).toBeUndefined()
    expect(bodyBytes({ ...answer, body: null })).toBeUndefined()
    expect(bodyBytes({ status: 200, headers: {}, body: '{}' })).toBeUndefined()
  })
})

describe("a cached answer's bytes", () => {
  it('are the UTF-8 bytes of its body, encoded once and written by every hit', async () => {
    const gateway = gatewayWith()
    const made = await gateway.get(path, { name: 'lindesnes' })
    const first = await gateway.get(path, { name: 'lindesnes' })
    const second = await gateway.get(path, { name: 'lindesnes' })
    expect(first.headers['cache-status']).toMatch(/hit/)
    for (const answer of [made, first, second]) {
      expect(Buffer.from(bodyBytes(answer)!).toString('utf8')).toBe(answer.body)
      expect(bodyBytes(answer)!.length).toBe(Number(answer.headers['content-length']))
    }
    expect(bodyBytes(second)).toBe(bodyBytes(first))
    expect(bodyBytes(first)).toBe(bodyBytes(made))
    expect(gateway.errors).toEqual([])
  })

  it('are held for an answer made once, such as the list of sources', async () => {
    const gateway = gatewayWith()
    const sources = await gateway.get('/api/v1/kilder')
    expect(Buffer.from(bodyBytes(sources)!).toString('utf8')).toBe(sources.body)
    expect(bodyBytes(await gateway.get('/api/v1/kilder'))).toBe(bodyBytes(sources))
  })

  it("stay with a hook's copy that keeps the body, and are not sent for one whose body the hook changed", async () => {
    const marked = gatewayWith((response) => {
      response.headers['x-served-by'] = 'test'
    })
    await marked.get(path, { name: 'ryvingen' })
    const kept = await marked.get(path, { name: 'ryvingen' })
    expect(kept.headers['x-served-by']).toBe('test')
    expect(Buffer.from(bodyBytes(kept)!).toString('utf8')).toBe(kept.body)

    const rewritten = gatewayWith((response) => {
      response.body = response.body?.replace('Lindesnes', 'Lista') ?? null
    })
    await rewritten.get(path, { name: 'lista' })
    const changed = await rewritten.get(path, { name: 'lista' })
    expect(changed.body).toContain('Lista fyr')
    expect(bodyBytes(changed)).toBeUndefined()
  })

  it('are not sent with a HEAD or a 304', async () => {
    const gateway = gatewayWith()
    const got = await gateway.get(path, { name: 'utvaer' })
    const head = await gateway.handle({ method: 'HEAD', path, query: 'name=utvaer', headers: {} })
    expect(head.body).toBeNull()
    expect(bodyBytes(head)).toBeUndefined()
    const notModified = await gateway.get(path, { name: 'utvaer' }, { 'if-none-match': got.headers.etag! })
    expect(notModified.status).toBe(304)
    expect(bodyBytes(notModified)).toBeUndefined()
  })
})
