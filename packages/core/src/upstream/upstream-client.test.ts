import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../testing/fake-upstream.js'
import { checkUpstreamShape, createUpstreamClient, redactUrl, UpstreamError } from '../source.js'

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeUpstream({
    '/empty-404': () => ({ status: 404, body: '' }),
    '/html-404': () => ({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not Found</h1>' }),
    '/json-410': () => ({ status: 410, headers: { 'content-type': 'application/json' }, body: '{"slettedato":"2017-10-20"}' }),
    '/empty-200': () => ({ status: 200, body: '' }),
    '/agent': (_url, req) => ({ status: 200, body: JSON.stringify({ agent: req.headers['user-agent'] }) }),
    '/cached': (_url, req): FakeReply =>
      req.headers['if-modified-since'] === 'Tue, 10 Feb 2026 08:00:00 GMT'
        ? { status: 304, headers: { expires: 'Tue, 10 Feb 2026 09:00:00 GMT' } }
        : { status: 200, headers: { 'content-type': 'application/json', 'Last-Modified': 'Tue, 10 Feb 2026 08:00:00 GMT', expires: 'Tue, 10 Feb 2026 08:30:00 GMT' }, body: '{"v":1}' },
  })
})
afterAll(() => fake.close())

const client = (calls: string[] = []) =>
  createUpstreamClient({ id: 'demo', name: 'Demo', baseUrl: fake.baseUrl, timeoutMs: 1000, userAgent: 'allmenning-test/1', maxBodyBytes: 1000 }, (url) => calls.push(url))

describe('createUpstreamClient', () => {
  it('gives accepted error statuses an optional body, and keeps one that is JSON', async () => {
    expect((await client().getJson('/empty-404', { acceptStatus: [404] })).body).toBeUndefined()
    expect((await client().getJson('/html-404', { acceptStatus: [404] })).body).toBeUndefined()
    expect((await client().getJson('/json-410', { acceptStatus: [410] })).body).toEqual({ slettedato: '2017-10-20' })
  })

  it('still refuses an empty 2xx body, and a status nobody accepted', async () => {
    await expect(client().getJson('/empty-200')).rejects.toMatchObject({ code: 'upstream_invalid_response' })
    await expect(client().getJson('/empty-404')).rejects.toMatchObject({ code: 'upstream_error', upstreamStatus: 404 })
  })

  it('identifies itself and records every URL it calls', async () => {
    const calls: string[] = []
    const res = await client(calls).getJson<{ agent: string }>('/agent', { query: { a: 'æ ø', b: undefined } })
    expect(res.body.agent).toBe('allmenning-test/1')
    // What was sent is what a source reads, for an upstream's own identification header.
    expect(client(calls).userAgent).toBe('allmenning-test/1')
    expect(calls).toEqual([`${fake.baseUrl}/agent?a=%C3%A6+%C3%B8`])
  })

  it('hands back the response headers in lower case, so a source can revalidate with If-Modified-Since', async () => {
    const first = await client().getJson<{ v: number }>('/cached')
    expect(first.body).toEqual({ v: 1 })
    expect(first.headers['last-modified']).toBe('Tue, 10 Feb 2026 08:00:00 GMT')
    expect(first.headers.expires).toBe('Tue, 10 Feb 2026 08:30:00 GMT')
    const again = await client().getJson('/cached', { headers: { 'if-modified-since': first.headers['last-modified']! }, acceptStatus: [304] })
    expect(again.status).toBe(304)
    expect(again.body).toBeUndefined()
    expect(again.headers.expires).toBe('Tue, 10 Feb 2026 09:00:00 GMT')
  })
})

describe('checkUpstreamShape', () => {
  it('returns the parsed payload, or a 502 that says where the shape broke', () => {
    const schema = v.object({ rows: v.array(v.object({ id: v.string() })) })
    expect(checkUpstreamShape({ id: 'demo', name: 'Demo' }, schema, { rows: [{ id: 'a' }] }, 'the rows')).toEqual({ rows: [{ id: 'a' }] })
    const error = (() => {
      try {
        checkUpstreamShape({ id: 'demo', name: 'Demo' }, schema, { rows: [{ id: 1 }] }, 'the rows')
      } catch (caught) {
        return caught
      }
    })()
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error).toMatchObject({ status: 502, code: 'upstream_invalid_response', message: 'Upstream Demo (demo) answered the rows in an unexpected shape (at rows.0.id)' })
  })
})

describe('postJson and redaction', () => {
  it('POSTs a form or JSON with its content type and reads the JSON answer', async () => {
    fake.route('/echo', async (_url, req) => {
      let text = ''
      for await (const chunk of req) text += String(chunk)
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: req.method, type: req.headers['content-type'], text }) }
    })
    const form = await client().postJson<{ method: string; type: string; text: string }>('/echo', new URLSearchParams({ grant_type: 'client_credentials', scope: 'ais' }))
    expect(form.body).toEqual({ method: 'POST', type: 'application/x-www-form-urlencoded', text: 'grant_type=client_credentials&scope=ais' })
    const json = await client().postJson<{ type: string; text: string }>('/echo', { a: 1 })
    expect(json.body).toMatchObject({ type: 'application/json', text: '{"a":1}' })
  })

  it('never records a secret of the URL, in any spelling', async () => {
    fake.route('/area/csv/s3cr+t/VIIRS', () => ({ status: 200, headers: { 'content-type': 'text/csv' }, body: 'latitude,longitude\n' }))
    const calls: string[] = []
    const res = await client(calls).getText('/area/csv/s3cr+t/VIIRS', { query: { key: 's3cr+t' }, redact: ['s3cr+t'] })
    expect(res.body).toBe('latitude,longitude\n')
    expect(calls).toEqual([`${fake.baseUrl}/area/csv/***/VIIRS?key=***`])
    expect(res.url).toBe(calls[0])
    expect(redactUrl('https://x.example/a%20b?k=a+b', ['a b'])).toBe('https://x.example/***?k=***')
  })
})
