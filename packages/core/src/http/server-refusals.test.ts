import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createGateway } from '../gateway.js'
import { conformanceSource } from '../testing/conformance/conformance-source.js'
import type { GatewayRequest, ResponseHook } from './gateway-request.js'
import { answerServerRefusals } from './server-refusals.js'

/** What the hook saw, one entry an answer: the status it was given and the request. */
let seen: { status: number; request: GatewayRequest }[] = []

/** A host's hook: marks every answer, and turns the answer to a request carrying `x-teapot` into a 418. */
const onResponse: ResponseHook = (response, request) => {
  seen.push({ status: response.status, request })
  response.headers['x-exit'] = String(response.status)
  if (request.headers['x-teapot'] !== undefined) return { ...response, status: 418 }
  if (request.headers['x-broken'] !== undefined) response.headers['x-split'] = 'a\r\nx-injected: yes'
}

let server: Server | undefined
afterEach(async () => {
  seen = []
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
})

/** A Node server whose app answers 200 to anything, with the refusals answered, through `gateway` when given. */
async function listen(withGateway: boolean): Promise<number> {
  const gateway = createGateway({ sources: [conformanceSource()], onResponse, onError: () => {} })
  server = createServer({ maxHeaderSize: 2048 }, (_req, res) => void res.end('app'))
  if (withGateway) answerServerRefusals(server, gateway)
  else answerServerRefusals(server)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Raw bytes on a fresh connection; resolves with the answer's head (lines) and body once the server closes it. */
function raw(port: number, text: string): Promise<{ head: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()))
    socket.on('close', () => {
      const [head = '', ...body] = received.split('\r\n\r\n')
      resolve({ head: head.split('\r\n'), body: body.join('\r\n\r\n') })
    })
    socket.on('error', reject)
  })
}

const unmetExpect = 'GET /api/v1/kilder?view=names HTTP/1.1\r\nHost: x\r\nExpect: the-unexpected\r\nX-Tag: t\r\n\r\n'
const tunnel = 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n'

describe('answerServerRefusals given the gateway', () => {
  it("sends an Expect it cannot meet (417) through the gateway's exit, with the request as Node read it", async () => {
    const port = await listen(true)
    const { head, body } = await raw(port, unmetExpect)
    expect(head[0]).toBe('HTTP/1.1 417 Expectation Failed')
    expect(head).toContain('x-exit: 417')
    expect(head.map((line) => line.toLowerCase())).toContain('connection: close')
    expect(JSON.parse(body).error).toMatchObject({ status: 417, code: 'request_rejected' })
    expect(seen).toHaveLength(1)
    expect(seen[0]!.request).toMatchObject({
      method: 'GET',
      path: '/api/v1/kilder',
      query: 'view=names',
      headers: { expect: 'the-unexpected', 'x-tag': 't' },
    })
  })

  it("sends a CONNECT (501) through the gateway's exit, its authority as the path", async () => {
    const port = await listen(true)
    const { head, body } = await raw(port, tunnel)
    expect(head[0]).toBe('HTTP/1.1 501 Not Implemented')
    expect(head).toContain('x-exit: 501')
    expect(head).toContain('connection: close')
    expect(JSON.parse(body).error).toMatchObject({ status: 501, code: 'request_rejected' })
    expect(seen.map((s) => s.request)).toMatchObject([{ method: 'CONNECT', path: 'example.org:443', query: '' }])
  })

  it('lets the hook rewrite the status of either, and the connection is closed all the same', async () => {
    const port = await listen(true)
    const expectation = await raw(port, unmetExpect.replace('X-Tag: t', 'X-Teapot: 1'))
    expect(expectation.head[0]).toMatch(/^HTTP\/1.1 418 /)
    expect(expectation.head).toContain('x-exit: 417')
    const connect = await raw(port, tunnel.replace('\r\n\r\n', '\r\nX-Teapot: 1\r\n\r\n'))
    expect(connect.head[0]).toMatch(/^HTTP\/1.1 418 /)
    expect(connect.head).toContain('x-exit: 501')
  })

  it('sends what Node could not read (400, 431) through the exit too, with an empty request, since none was read', async () => {
    const port = await listen(true)
    const cases: [string, number][] = [
      ['BREW / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400],
      [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(4096)}\r\n\r\n`, 431],
    ]
    for (const [text, status] of cases) {
      const { head, body } = await raw(port, text)
      expect(head[0], text.slice(0, 20)).toMatch(new RegExp(`^HTTP/1.1 ${status} `))
      expect(head).toContain(`x-exit: ${status}`)
      expect(head).toContain('connection: close')
      expect(JSON.parse(body).error).toMatchObject({ status, code: 'request_rejected' })
    }
    expect(seen.map((s) => s.status)).toEqual([400, 400, 431])
    for (const { request } of seen)
      expect(request).toEqual({ method: '', path: '', query: '', headers: {}, basePath: '' })
  })

  it('answers the shared 500 when the hook gives a header that cannot be written, nothing of it sent', async () => {
    const port = await listen(true)
    const { head } = await raw(port, tunnel.replace('\r\n\r\n', '\r\nX-Broken: 1\r\n\r\n'))
    expect(head[0]).toMatch(/^HTTP\/1.1 500 /)
    expect(head.some((line) => /^x-(exit|split|injected)/i.test(line))).toBe(false)
    const expectation = await raw(port, unmetExpect.replace('X-Tag: t', 'X-Broken: 1'))
    expect(expectation.head[0]).toMatch(/^HTTP\/1.1 500 /)
    expect(expectation.head.some((line) => /^x-(exit|split|injected)/i.test(line))).toBe(false)
  })

  it('still serves the app: a request Node reads and hands on is not a refusal', async () => {
    const port = await listen(true)
    const { head, body } = await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(head[0]).toBe('HTTP/1.1 200 OK')
    expect(body).toBe('app')
    expect(seen).toEqual([])
  })
})

describe('answerServerRefusals given a gateway that fails', () => {
  it("answers a hook's error with the shared 500 through the exit, reported to onError", async () => {
    const errors: unknown[] = []
    const gateway = createGateway({
      sources: [conformanceSource()],
      onError: (error) => errors.push(error),
      onResponse: () => {
        throw new Error('hook failed')
      },
    })
    server = answerServerRefusals(
      createServer(() => undefined),
      gateway,
    )
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const { head, body } = await raw((server.address() as AddressInfo).port, tunnel)
    expect(head[0]).toMatch(/^HTTP\/1.1 500 /)
    expect(JSON.parse(body).error).toMatchObject({ status: 500, code: 'internal_error' })
    expect(errors).toEqual([new Error('hook failed')])
  })

  it("answers the plain refusal when a door of the host's own making throws, and the server lives on", async () => {
    const door = {
      answerRefusal: () => {
        throw new Error('door failed')
      },
    }
    server = answerServerRefusals(
      createServer(() => undefined),
      door,
    )
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const first = await raw(port, 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n')
    expect(first.head[0]).toMatch(/^HTTP\/1.1 400 /)
    const second = await raw(port, tunnel)
    expect(second.head[0]).toMatch(/^HTTP\/1.1 501 /)
  })
  it("answers the plain refusal when a door of the host's own making gives what cannot be written", async () => {
    const door = {
      answerRefusal: () => ({ status: 200, headers: { 'x-split': 'a\r\nx-injected: yes' }, body: '' }),
    }
    server = answerServerRefusals(
      createServer(() => undefined),
      door,
    )
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const { head } = await raw((server.address() as AddressInfo).port, tunnel)
    expect(head[0]).toMatch(/^HTTP\/1.1 501 /)
    expect(head.some((line) => /^x-(split|injected)/i.test(line))).toBe(false)
  })
})

describe('answerServerRefusals without the gateway', () => {
  it('answers the same refusals in the shared error body, no hook run', async () => {
    const port = await listen(false)
    for (const [text, status] of [
      [unmetExpect, 417],
      [tunnel, 501],
      ['BREW / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ] as const) {
      const { head, body } = await raw(port, text)
      expect(head[0]).toMatch(new RegExp(`^HTTP/1.1 ${status} `))
      expect(head.some((line) => line.startsWith('x-exit'))).toBe(false)
      expect(JSON.parse(body).error).toMatchObject({ status, code: 'request_rejected' })
    }
    expect(seen).toEqual([])
  })
})
