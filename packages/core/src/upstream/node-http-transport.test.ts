import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { finished } from 'node:stream/promises'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { nodeHttpTransport } from './node-http-transport.js'
import type { TransportAnswer } from './upstream-transport.js'

// Node's own HTTP client as the upstream client uses it, against a local server that plays
// each way an upstream answers or fails to: whole, never, halfway, or by dropping the line.

/** Every connection the server accepted, in order, with a promise of its closing. */
const connections: { socket: Socket; closed: Promise<void> }[] = []
let server: Server
let baseUrl: string

const partialBody = 'x'.repeat(100)

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    if (path === '/echo') {
      let body = ''
      for await (const chunk of req) body += String(chunk)
      res.writeHead(200, { 'content-type': 'application/json', 'x-repeated': ['a', 'b'] })
      res.end(JSON.stringify({ method: req.method, headers: req.headers, body }))
    } else if (path === '/hang') {
      // No head, ever (until the server closes).
    } else if (path === '/stall') {
      // A head announcing 1000 bytes, a tenth of them, then silence.
      res.writeHead(200, { 'content-length': '1000' })
      res.write(partialBody)
    } else if (path === '/reset') {
      // A tenth of the announced body, then the connection is dropped.
      res.writeHead(200, { 'content-length': '1000' })
      res.write(partialBody, () => setTimeout(() => req.socket.destroy(), 20))
    } else if (path === '/not-found') {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('Not Found')
    } else if (path === '/unfinished-error') {
      res.writeHead(503, { 'content-length': '1000' })
      res.write(partialBody)
    }
  })
  server.on('connection', (socket: Socket) =>
    connections.push({ socket, closed: once(socket, 'close').then(() => undefined) }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** Errors no code handled, heard while a test ran: an 'error' event nobody listened to ends up here. */
const uncaught: unknown[] = []
const hear = (error: unknown) => uncaught.push(error)
beforeAll(() => {
  process.on('uncaughtException', hear)
  process.on('unhandledRejection', hear)
})
afterAll(() => {
  process.off('uncaughtException', hear)
  process.off('unhandledRejection', hear)
})
afterEach(() => {
  expect(uncaught).toEqual([])
  uncaught.length = 0
})

const get = (path: string, signal = AbortSignal.timeout(5000)) =>
  nodeHttpTransport(`${baseUrl}${path}`, { method: 'GET', headers: { accept: 'application/json' }, signal })

async function readAll(answer: TransportAnswer): Promise<string> {
  let text = ''
  for await (const chunk of answer.body) text += chunk.toString('utf8')
  return text
}

/** The error a promise fails with, and how long it took to fail. */
async function failureOf(
  promise: Promise<unknown>,
): Promise<{ error: { name?: string; code?: string; message?: string }; ms: number }> {
  const started = performance.now()
  try {
    await promise
  } catch (error) {
    return { error: error as { name?: string; code?: string }, ms: performance.now() - started }
  }
  throw new Error('expected a failure, and it succeeded')
}

/** Lets the event loop run every callback already due (an 'error' event emitted on the next tick). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('nodeHttpTransport', () => {
  it('sends a GET with its headers and hands back status, headers in lower case and the body', async () => {
    const answer = await nodeHttpTransport(`${baseUrl}/echo?a=1`, {
      method: 'GET',
      headers: { 'user-agent': 'allmenning-test/1', accept: 'application/json', 'X-Custom': 'yes' },
      signal: AbortSignal.timeout(5000),
    })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.headers['x-repeated']).toBe('a, b')
    const seen = JSON.parse(await readAll(answer))
    expect(seen).toMatchObject({
      method: 'GET',
      body: '',
      headers: { 'user-agent': 'allmenning-test/1', accept: 'application/json', 'x-custom': 'yes' },
    })
    // No body, so none announced either way.
    expect(seen.headers['content-length']).toBeUndefined()
    expect(seen.headers['transfer-encoding']).toBeUndefined()
  })

  it('sends a POST body whole, with its Content-Length rather than chunked', async () => {
    const body = 'grant_type=client_credentials&scope=ais&name=%C3%A6%C3%B8'
    const answer = await nodeHttpTransport(`${baseUrl}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      signal: AbortSignal.timeout(5000),
    })
    const seen = JSON.parse(await readAll(answer))
    expect(seen).toMatchObject({
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
      },
    })
    expect(seen.headers['transfer-encoding']).toBeUndefined()
  })

  it('gives up a head that never comes when the signal aborts, with the AbortError the client takes for a timeout', async () => {
    const { error, ms } = await failureOf(get('/hang', AbortSignal.timeout(200)))
    expect(error).toMatchObject({ name: 'AbortError', code: 'ABORT_ERR' })
    expect(ms).toBeGreaterThanOrEqual(190)
    expect(ms).toBeLessThan(2000)
  })

  it('cuts off a body that stalls halfway when the signal aborts, and closes its connection', async () => {
    const abort = new AbortController()
    const answer = await get('/stall', abort.signal)
    const connection = connections.at(-1)!
    expect(answer.status).toBe(200)
    setTimeout(() => abort.abort(new DOMException('time is up', 'TimeoutError')), 200)
    const started = performance.now()
    let received = 0
    const { error } = await failureOf(
      (async () => {
        for await (const chunk of answer.body) received += chunk.length
      })(),
    )
    // The part sent before the stall was read; the rest was waited for until the abort.
    expect(received).toBe(partialBody.length)
    expect(performance.now() - started).toBeGreaterThanOrEqual(190)
    expect(error.code).toBe('ECONNRESET')
    // A socket with a body still owed on it can serve no other request: it is closed.
    await connection.closed
  })

  it('fails a connection refused before any answer', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const { error } = await failureOf(
      nodeHttpTransport(`http://127.0.0.1:${port}/`, { method: 'GET', headers: {}, signal: AbortSignal.timeout(5000) }),
    )
    expect(error.code).toBe('ECONNREFUSED')
  })

  it('fails the reading of a body whose connection is dropped halfway, and nothing else', async () => {
    const answer = await get('/reset')
    const { error } = await failureOf(readAll(answer))
    expect(error.code).toBe('ECONNRESET')
    await settle()
  })

  it('lets a body nobody reads be dropped halfway without an unhandled error', async () => {
    const answer = await get('/reset')
    const connection = connections.at(-1)!
    // Not read at all: the reset comes while the answer waits.
    await connection.closed
    await settle()
    expect(answer.status).toBe(200)
    await expect(readAll(answer)).rejects.toMatchObject({ code: 'ECONNRESET' })
  })

  it('discards an error answer received whole, and its kept-alive connection serves the next call', async () => {
    const answer = await get('/not-found')
    const connection = connections.at(-1)!
    expect(answer.status).toBe(404)
    await answer.discard()
    await finished(answer.body as IncomingMessage)
    await settle()
    const next = await get('/echo')
    expect(next.status).toBe(200)
    await readAll(next)
    expect(connections.at(-1)).toBe(connection)
    expect(connection.socket.destroyed).toBe(false)
  })

  it('discards an error answer still arriving by closing its connection, without an error', async () => {
    const answer = await get('/unfinished-error')
    const connection = connections.at(-1)!
    expect(answer.status).toBe(503)
    await answer.discard()
    await connection.closed
    await settle()
    // Discarding twice is harmless.
    await answer.discard()
  })
})
