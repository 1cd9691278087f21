import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent, getGlobalDispatcher, MockAgent, setGlobalDispatcher, type Dispatcher } from 'undici'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeUpstream, type FakeReply, type FakeUpstream } from '../testing/fake-upstream.js'
import { checkUpstreamShape, createUpstreamClient, redactUrl, UpstreamError, type UpstreamSettings } from '../source.js'
import { createDeadline } from './deadline.js'

let fake: FakeUpstream
beforeAll(async () => {
  fake = await startFakeUpstream({
    '/empty-404': () => ({ status: 404, body: '' }),
    '/html-404': () => ({ status: 404, headers: { 'content-type': 'text/html' }, body: '<h1>Not Found</h1>' }),
    '/json-410': () => ({
      status: 410,
      headers: { 'content-type': 'application/json' },
      body: '{"slettedato":"2017-10-20"}',
    }),
    '/empty-200': () => ({ status: 200, body: '' }),
    '/agent': (_url, req) => ({ status: 200, body: JSON.stringify({ agent: req.headers['user-agent'] }) }),
    '/cached': (_url, req): FakeReply =>
      req.headers['if-modified-since'] === 'Tue, 10 Feb 2026 08:00:00 GMT'
        ? { status: 304, headers: { expires: 'Tue, 10 Feb 2026 09:00:00 GMT' } }
        : {
            status: 200,
            headers: {
              'content-type': 'application/json',
              'Last-Modified': 'Tue, 10 Feb 2026 08:00:00 GMT',
              expires: 'Tue, 10 Feb 2026 08:30:00 GMT',
            },
            body: '{"v":1}',
          },
    '/hang': () => ({ hang: true }),
    '/stall': (_url, req) => answerPartly(req, 'stall'),
    '/drop': (_url, req) => answerPartly(req, 'drop'),
    '/announced-2000': () => ({
      status: 200,
      headers: { 'content-type': 'application/json', 'content-length': '2000' },
      body: ' '.repeat(2000),
    }),
    '/streamed-2000': () => ({
      status: 200,
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: ' '.repeat(2000),
    }),
    '/busy-503': () => ({
      status: 503,
      headers: { 'content-type': 'text/html' },
      body: '<h1>Service Unavailable</h1>'.repeat(20),
    }),
  })
})
afterAll(() => fake.close())

/**
 * Answers on the connection itself: a head announcing 1000 bytes and the first few of them,
 * then silence ('stall') or the connection dropped ('drop'). The fake then never answers.
 */
function answerPartly(req: IncomingMessage, then: 'stall' | 'drop'): FakeReply {
  req.socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n[1,2,3,4,')
  if (then === 'drop') setTimeout(() => req.socket.destroy(), 50)
  return { hang: true }
}

/** A port on the loopback that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** The error a call fails with, and how long it took to fail. */
async function failureOf(call: Promise<unknown>): Promise<{ error: UpstreamError; ms: number }> {
  const started = performance.now()
  try {
    await call
  } catch (error) {
    expect(error).toBeInstanceOf(UpstreamError)
    return { error: error as UpstreamError, ms: performance.now() - started }
  }
  throw new Error('expected the call to fail, and it succeeded')
}

// Every call goes through Node's own HTTP client unless the settings give an undici
// dispatcher; both ways are held to the same behaviour.
const undiciAgent = new Agent()
afterAll(() => undiciAgent.close())
const transports: { transport: string; dispatcher: Dispatcher | undefined }[] = [
  { transport: "Node's HTTP client (no dispatcher)", dispatcher: undefined },
  { transport: 'undici (a dispatcher given)', dispatcher: undiciAgent },
]

describe.each(transports)('createUpstreamClient through $transport', ({ dispatcher }) => {
  const settings = (more: Partial<UpstreamSettings> = {}): UpstreamSettings => ({
    id: 'demo',
    name: 'Demo',
    baseUrl: fake.baseUrl,
    timeoutMs: 1000,
    userAgent: 'allmenning-test/1',
    maxBodyBytes: 1000,
    ...(dispatcher ? { dispatcher } : {}),
    ...more,
  })
  const client = (calls: string[] = []) => createUpstreamClient(settings(), (url) => calls.push(url))

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
    const again = await client().getJson('/cached', {
      headers: { 'if-modified-since': first.headers['last-modified']! },
      acceptStatus: [304],
    })
    expect(again.status).toBe(304)
    expect(again.body).toBeUndefined()
    expect(again.headers.expires).toBe('Tue, 10 Feb 2026 09:00:00 GMT')
  })

  describe('postJson and redaction', () => {
    it('POSTs a form or JSON with its content type and reads the JSON answer', async () => {
      fake.route('/echo', async (_url, req) => {
        let text = ''
        for await (const chunk of req) text += String(chunk)
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ method: req.method, type: req.headers['content-type'], text }),
        }
      })
      const form = await client().postJson<{ method: string; type: string; text: string }>(
        '/echo',
        new URLSearchParams({ grant_type: 'client_credentials', scope: 'ais' }),
      )
      expect(form.body).toEqual({
        method: 'POST',
        type: 'application/x-www-form-urlencoded',
        text: 'grant_type=client_credentials&scope=ais',
      })
      const json = await client().postJson<{ type: string; text: string }>('/echo', { a: 1 })
      expect(json.body).toMatchObject({ type: 'application/json', text: '{"a":1}' })
    })

    it('POSTs a text body as it is, with its content type and headers, and decodes the text answer', async () => {
      fake.route('/siri', async (_url, req) => {
        let text = ''
        for await (const chunk of req) text += String(chunk)
        const reply = `<echo method="${req.method}" type="${req.headers['content-type']}" key="${req.headers['x-key']}">${text}</echo>`
        return {
          status: 200,
          headers: { 'content-type': 'application/xml; charset=iso-8859-1' },
          body: Buffer.from(reply, 'latin1'),
        }
      })
      const res = await client().postText('/siri', '<Siri><ø/></Siri>', {
        contentType: 'application/xml',
        headers: { 'x-key': 'k' },
      })
      expect(res.body).toBe('<echo method="POST" type="application/xml" key="k"><Siri><ø/></Siri></echo>')
      expect(res.contentType).toBe('application/xml; charset=iso-8859-1')
    })

    it('never records a secret of the URL, in any spelling', async () => {
      fake.route('/area/csv/s3cr+t/VIIRS', () => ({
        status: 200,
        headers: { 'content-type': 'text/csv' },
        body: 'latitude,longitude\n',
      }))
      const calls: string[] = []
      const res = await client(calls).getText('/area/csv/s3cr+t/VIIRS', {
        query: { key: 's3cr+t' },
        redact: ['s3cr+t'],
      })
      expect(res.body).toBe('latitude,longitude\n')
      expect(calls).toEqual([`${fake.baseUrl}/area/csv/***/VIIRS?key=***`])
      expect(res.url).toBe(calls[0])
      expect(redactUrl('https://x.example/a%20b?k=a+b', ['a b'])).toBe('https://x.example/***?k=***')
    })
  })

  describe('time and size limits', () => {
    it('reports a head that never comes as a timeout at the time limit', async () => {
      const { error, ms } = await failureOf(createUpstreamClient(settings({ timeoutMs: 200 })).getJson('/hang'))
      expect(error).toMatchObject({
        failure: 'timeout',
        code: 'upstream_timeout',
        message: 'Upstream Demo (demo) did not answer within 200 ms',
      })
      expect(ms).toBeGreaterThanOrEqual(190)
      expect(ms).toBeLessThan(1500)
    })

    it('reports a body that stalls halfway as a timeout at the time limit', async () => {
      const { error, ms } = await failureOf(createUpstreamClient(settings({ timeoutMs: 200 })).getJson('/stall'))
      expect(error).toMatchObject({
        failure: 'timeout',
        message: 'Upstream Demo (demo) did not finish its answer within 200 ms',
      })
      expect(ms).toBeGreaterThanOrEqual(190)
      expect(ms).toBeLessThan(1500)
    })

    it("gives a call no more than what is left of the request's deadline", async () => {
      const deadline = createDeadline(150)
      const { error, ms } = await failureOf(
        createUpstreamClient(settings({ timeoutMs: 5000 }), undefined, { deadline }).getJson('/hang'),
      )
      expect(error).toMatchObject({
        failure: 'timeout',
        message: "Upstream Demo (demo) did not answer within the request's deadline of 150 ms",
      })
      expect(ms).toBeLessThan(1500)
    })

    it('reports a connection refused as unavailable before any answer, which a retry may repeat', async () => {
      const { error } = await failureOf(
        createUpstreamClient(settings({ baseUrl: `http://127.0.0.1:${await closedPort()}` })).getJson('/'),
      )
      expect(error).toMatchObject({
        failure: 'unavailable',
        message: 'Upstream Demo (demo) could not be reached',
        detail: { beforeResponse: true },
      })
    })

    it('reports a connection dropped halfway through the body as unavailable, after the answer began', async () => {
      const { error } = await failureOf(client().getJson('/drop'))
      expect(error).toMatchObject({ failure: 'unavailable', message: 'Upstream Demo (demo) broke off its answer' })
      expect(error.detail.beforeResponse).toBeUndefined()
    })

    it('refuses a body whose Content-Length is over the limit, and one that streams past it', async () => {
      const announced = await failureOf(client().getJson('/announced-2000'))
      expect(announced.error).toMatchObject({
        failure: 'invalid_response',
        message: 'Upstream Demo (demo) announced 2000 bytes, more than the 1000 accepted',
      })
      const streamed = await failureOf(client().getJson('/streamed-2000'))
      expect(streamed.error).toMatchObject({
        failure: 'invalid_response',
        message: 'Upstream Demo (demo) sent more than the 1000 bytes accepted',
      })
      // Neither left the client unable to call again.
      expect((await client().getJson<{ agent: string }>('/agent')).body.agent).toBe('allmenning-test/1')
    })

    it('discards an error answer and calls on', async () => {
      for (let call = 0; call < 3; call++) {
        const { error } = await failureOf(client().getJson('/busy-503'))
        expect(error).toMatchObject({ failure: 'status', upstreamStatus: 503 })
      }
      expect((await client().getJson<{ agent: string }>('/agent')).body.agent).toBe('allmenning-test/1')
    })
  })
})

describe('which HTTP client carries a call', () => {
  const settings = { id: 'demo', name: 'Demo', timeoutMs: 1000, userAgent: 'allmenning-test/1', maxBodyBytes: 1000 }

  it('is undici, through the dispatcher the settings give', async () => {
    const mock = new MockAgent()
    mock.disableNetConnect()
    mock.get(new URL(fake.baseUrl).origin).intercept({ path: '/agent' }).reply(200, { agent: 'the mock' })
    try {
      const res = await createUpstreamClient({ ...settings, baseUrl: fake.baseUrl, dispatcher: mock }).getJson('/agent')
      expect(res.body).toEqual({ agent: 'the mock' })
    } finally {
      await mock.close()
    }
  })

  it("is Node's own without one: undici's global dispatcher is not asked", async () => {
    const mock = new MockAgent()
    mock.disableNetConnect()
    const previous = getGlobalDispatcher()
    setGlobalDispatcher(mock)
    try {
      const res = await createUpstreamClient({ ...settings, baseUrl: fake.baseUrl }).getJson('/agent')
      expect(res.body).toEqual({ agent: 'allmenning-test/1' })
    } finally {
      setGlobalDispatcher(previous)
      await mock.close()
    }
  })
})

describe('checkUpstreamShape', () => {
  it('returns the parsed payload, or a 502 that says where the shape broke', () => {
    const schema = v.object({ rows: v.array(v.object({ id: v.string() })) })
    expect(checkUpstreamShape({ id: 'demo', name: 'Demo' }, schema, { rows: [{ id: 'a' }] }, 'the rows')).toEqual({
      rows: [{ id: 'a' }],
    })
    const error = (() => {
      try {
        checkUpstreamShape({ id: 'demo', name: 'Demo' }, schema, { rows: [{ id: 1 }] }, 'the rows')
      } catch (caught) {
        return caught
      }
    })()
    expect(error).toBeInstanceOf(UpstreamError)
    expect(error).toMatchObject({
      status: 502,
      code: 'upstream_invalid_response',
      message: 'Upstream Demo (demo) answered the rows in an unexpected shape (at rows.0.id)',
    })
  })
})
