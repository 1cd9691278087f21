import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/express-server/src/app.js'

let server: Server
let base: string
beforeAll(async () => {
  server = createServer(createApp({ ALLMENNING_UPSTREAM_STATNETT: 'http://127.0.0.1:9/restapi' }, { onError: () => {} }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function send(path: string, method: string, headers: Record<string, string>, body?: string | Buffer) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe("the example Express server answers the host's own errors as JSON", () => {
  it.each([
    ['malformed JSON', { 'content-type': 'application/json' }, '{"q": ', 400, 'invalid_body'],
    ['an unknown charset', { 'content-type': 'application/json; charset=klingon' }, '{}', 415, 'unsupported_media_type'],
    ['an unknown encoding', { 'content-type': 'application/json', 'content-encoding': 'zstd-nonsense' }, '{}', 415, 'unsupported_media_type'],
    ['a broken gzip body', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'not gzip at all', 400, 'invalid_body'],
  ])('%s: the shared error body, no stack trace', async (_name, headers, body, status, code) => {
    const res = await send('/health', 'POST', headers, body)
    expect(res.status).toBe(status)
    expect(res.type).toBe('application/json; charset=utf-8')
    expect(JSON.parse(res.body).error).toMatchObject({ status, code, details: [] })
    expect(res.body).not.toMatch(/\n\s+at |node_modules|<html/i)
  })

  it('answers a path outside /api with a JSON 404 pointing at the API index', async () => {
    for (const path of ['/', '/nope', '/apiary', '/health/x']) {
      const res = await send(path, 'GET', {})
      expect(res.status).toBe(404)
      expect(res.type).toBe('application/json; charset=utf-8')
      expect(JSON.parse(res.body).error).toMatchObject({ status: 404, code: 'route_not_found', message: expect.stringContaining('/api/v1/') })
    }
  })
})
