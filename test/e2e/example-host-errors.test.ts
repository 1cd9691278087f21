import { request as httpRequest, type RequestListener, type Server } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ResponseHook } from '@allmenning/core'
import type { HostDoors } from '@allmenning/core/adapter'
import { createApp as createExpressApp } from '../../examples/express-server/src/app.js'
import { createApp as createKoaApp } from '../../examples/koa-server/src/app.js'
import { listenAsTheExamples } from '../support/example-server.js'
import { offlineEnvironment } from '../support/offline-environment.js'

const hostErrors: unknown[] = []
/** A host's hook on every answer of the gateway, which the server's own refusals pass too. */
const onResponse: ResponseHook = (response) => {
  response.headers['x-host-exit'] = String(response.status)
}
const apps: Record<string, () => { listener: RequestListener; gateway: HostDoors }> = {
  express: () => {
    const app = createExpressApp(offlineEnvironment(), { onError: () => {}, onResponse })
    return { listener: app, gateway: app.gateway }
  },
  koa: () => {
    const app = createKoaApp(offlineEnvironment(), {
      gateway: { onError: () => {}, onResponse },
      onHostError: (error) => hostErrors.push(error),
    })
    return { listener: app.callback(), gateway: app.gateway }
  },
}

describe.each(Object.keys(apps))("the example %s server answers the host's own errors as JSON", (name) => {
  let server: Server
  let base: string
  let port: number
  beforeAll(async () => {
    const { listener, gateway } = apps[name]!()
    ;({ server, port, base } = await listenAsTheExamples(listener, gateway))
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  function send(path: string, method: string, headers: Record<string, string>, body?: string | Buffer) {
    return new Promise<{ status: number; type: string; body: string; exit: unknown }>((resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            type: String(res.headers['content-type']),
            body: Buffer.concat(chunks).toString('utf8'),
            exit: res.headers['x-host-exit'],
          }),
        )
      })
      req.on('error', reject)
      req.end(body)
    })
  }

  /** Raw bytes on a fresh connection, for requests no HTTP client would send; resolves with all that came back. */
  function raw(text: string) {
    return new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(text))
      let received = ''
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
      socket.on('close', () => resolve(received))
      socket.on('error', reject)
    })
  }

  // @koa/bodyparser reads every body as UTF-8 whatever its charset says, so with Koa such a
  // body reaches routing, and POST /health has no route.
  const unknownCharset: [number, string] = name === 'koa' ? [404, 'route_not_found'] : [415, 'unsupported_media_type']
  it.each<[string, Record<string, string>, string, number, string]>([
    ['malformed JSON', { 'content-type': 'application/json' }, '{"q": ', 400, 'invalid_body'],
    ['an unknown charset', { 'content-type': 'application/json; charset=klingon' }, '{}', ...unknownCharset],
    [
      'an unknown encoding',
      { 'content-type': 'application/json', 'content-encoding': 'zstd-nonsense' },
      '{}',
      415,
      'unsupported_media_type',
    ],
    [
      'a broken gzip body',
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      'not gzip at all',
      400,
      'invalid_body',
    ],
    [
      'a broken brotli body',
      { 'content-type': 'application/json', 'content-encoding': 'br' },
      '{"message":"not brotli"}',
      400,
      'invalid_body',
    ],
  ])('%s: the shared error body, no stack trace', async (_name, headers, body, status, code) => {
    const res = await send('/health', 'POST', headers, body)
    expect(res.status).toBe(status)
    expect(res.type).toBe('application/json; charset=utf-8')
    expect(JSON.parse(res.body).error).toMatchObject({ status, code })
    expect(res.body).not.toMatch(/\n\s+at |node_modules|<html/i)
    expect(hostErrors).toEqual([])
  })

  it('answers a path outside /api, or a method no route takes, with a JSON 404 pointing at the API index', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/nope'],
      ['GET', '/apiary'],
      ['GET', '/health/x'],
      ['DELETE', '/health'],
      ['PROPFIND', '/health'],
      ['OPTIONS', '/'],
    ]) {
      const res = await send(path!, method!, {})
      expect(res.status).toBe(404)
      expect(res.type).toBe('application/json; charset=utf-8')
      expect(JSON.parse(res.body).error).toMatchObject({
        status: 404,
        code: 'route_not_found',
        message: expect.stringContaining('/api/v1/'),
      })
    }
    expect(hostErrors).toEqual([])
  })

  it("answers a request Node's parser refuses with JSON too, and closes the connection", async () => {
    for (const [text, status] of [
      ['BREW /api/v1/ HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['get /api/v1/ HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['GET /api/v1/ HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400],
      [`GET /api/v1/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`, 431],
    ] as const) {
      const answer = await raw(text)
      const [head, body] = answer.split('\r\n\r\n')
      expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `))
      expect(head).toContain('content-type: application/json; charset=utf-8')
      // Through the gateway's exit, though no request was read: the host's hook marked it.
      expect(head).toContain(`x-host-exit: ${status}`)
      expect(JSON.parse(body!).error).toMatchObject({ status, code: 'request_rejected' })
    }
  })

  it('answers CONNECT, which Node hands to no app, with a JSON 501 instead of a dropped connection', async () => {
    for (const target of ['example.org:443', '/api/v1/']) {
      const answer = await raw(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`)
      const [head, body] = answer.split('\r\n\r\n')
      expect(head).toMatch(/^HTTP\/1.1 501 /)
      expect(head).toContain('content-type: application/json; charset=utf-8')
      expect(head).toContain('x-host-exit: 501')
      expect(JSON.parse(body!).error).toMatchObject({
        status: 501,
        code: 'request_rejected',
        message: expect.stringContaining('CONNECT'),
      })
    }
  })

  it('answers a bad request after a good one on the same connection, and an Expect it cannot meet, with JSON', async () => {
    const answer = await raw('GET /api/v1/ HTTP/1.1\r\nHost: x\r\n\r\nBREW /api/v1/ HTTP/1.1\r\nHost: x\r\n\r\n')
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1])
    expect(statuses).toEqual(['200', '400'])
    expect(answer).toContain('"code":"request_rejected"')
    const expectation = await send('/api/v1/', 'GET', { expect: 'the-unexpected' })
    expect(expectation.status).toBe(417)
    expect(expectation.type).toBe('application/json; charset=utf-8')
    expect(expectation.exit).toBe('417')
    expect(JSON.parse(expectation.body).error).toMatchObject({ status: 417, code: 'request_rejected' })
  })
})
