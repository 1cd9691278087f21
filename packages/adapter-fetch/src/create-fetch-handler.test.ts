import { createGateway, type Gateway } from '@allmenning/core'
import { defineSource, defineUpstream } from '@allmenning/core/source'
import { describe, expect, it, vi } from 'vitest'
import { JSON_BODY, JSON_LENGTH, recordingGateway } from '../../../test/support/recording-gateway.js'
import { createFetchHandler } from './index.js'

const origin = 'http://127.0.0.1:8080'
/** A Web Request to the server's origin. */
const at = (path: string, init?: RequestInit) => new Request(`${origin}${path}`, init)
/** A source with nothing to call: the gateway's own routes (feedback, 404s) are what is tested. */
const empty = defineSource({
  id: 'empty',
  name: 'Empty',
  description: 'Nothing.',
  documentation: 'https://empty.example.no',
  topic: 'culture',
  keywords: [],
  contentLanguages: ['no'],
  cacheTtlSeconds: 60,
  upstreams: [
    defineUpstream({ id: 'nothing', name: 'Nothing', baseUrl: 'https://nothing.example.no', publisher: 'Nobody' }),
  ],
  operations: [],
})
const jsonType = 'application/json; charset=utf-8'

/** The shared error body, as far as these tests read it. */
interface ErrorBody {
  error: { status: number; code: string; message: string; details?: { parameter: string; rule: string }[] }
  _links: { api_index: string }
}
const errorOf = (answer: Response) => answer.json() as Promise<ErrorBody>

describe('createFetchHandler: the request the core sees', () => {
  it('the path below basePath, the raw query as sent, and the base path for links', async () => {
    const { gateway, last } = recordingGateway()
    const query = 'area=NO1&area=NO2&q=a%26b%3Dc&navn=%C3%A6%C3%B8%C3%A5&plus=a+b'
    const answer = await createFetchHandler(gateway, { basePath: 'data/' })(at(`/data/api/v1/kilder?${query}`))
    expect(answer.status).toBe(200)
    expect(last().request).toMatchObject({ method: 'GET', path: '/api/v1/kilder', query, basePath: '/data' })
  })

  it('header names in lower case, a repeated header joined with ", " as Node joins it', async () => {
    const { gateway, last } = recordingGateway()
    const headers = new Headers([
      ['If-None-Match', 'W/"x"'],
      ['if-none-match', 'W/"abc"'],
      ['X-Tag', 'one'],
    ])
    const answer = await createFetchHandler(gateway)(at('/api/v1/', { headers }))
    expect(last().request.headers).toMatchObject({ 'if-none-match': 'W/"x", W/"abc"', 'x-tag': 'one' })
    expect(Object.keys(last().request.headers).every((name) => name === name.toLowerCase())).toBe(true)
    expect(answer.status).toBe(200)
  })

  it('the client address from the option, which hears the runtime’s own arguments', async () => {
    const { gateway, last } = recordingGateway()
    type DenoInfo = { remoteAddr: { hostname: string } }
    const clientAddress = vi.fn((_request: Request, info: DenoInfo) => info.remoteAddr.hostname)
    const handler = createFetchHandler(gateway, { clientAddress })
    const request = at('/api/v1/')
    await handler(request, { remoteAddr: { hostname: '203.0.113.7' } })
    expect(clientAddress).toHaveBeenCalledWith(request, { remoteAddr: { hostname: '203.0.113.7' } })
    expect(last().request.clientAddress).toBe('203.0.113.7')
    await createFetchHandler(gateway)(at('/api/v1/'))
    expect('clientAddress' in last().request).toBe(false)
  })

  it('a body reader only for methods that carry one; the bytes as sent, whatever their charset', async () => {
    const { gateway, last } = recordingGateway()
    const handler = createFetchHandler(gateway)
    await handler(at('/api/v1/', { method: 'HEAD' }))
    expect(last().request.readBody).toBeUndefined()
    const latin1 = new Uint8Array([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xe6, 0x22, 0x7d]) // {"m":"æ"} in ISO-8859-1
    const headers = { 'content-type': 'application/json; charset=latin1' }
    await handler(at('/api/v1/feedback', { method: 'POST', body: latin1, headers }))
    expect(last().body).toEqual(latin1)
  })
})

describe('createFetchHandler: the Response', () => {
  it('status, exactly the headers the core chose (no charset added) and the body bytes', async () => {
    const { gateway } = recordingGateway()
    const answer = await createFetchHandler(gateway)(at('/api/v1/'))
    expect(Object.fromEntries(answer.headers)).toEqual({
      'content-type': jsonType,
      'content-length': JSON_LENGTH,
      etag: 'W/"abc"',
      'cache-control': 'public, max-age=60',
    })
    expect(await answer.text()).toBe(JSON_BODY)
  })

  it('an answer without a Content-Type gets none from the Response either', async () => {
    const { gateway } = recordingGateway(() => ({ status: 202, headers: { 'cache-control': 'no-store' }, body: '' }))
    const answer = await createFetchHandler(gateway)(at('/mcp', { method: 'POST', body: '{}' }))
    expect(answer.status).toBe(202)
    expect(answer.headers.get('content-type')).toBeNull()
    expect(await answer.text()).toBe('')
  })

  it("HEAD: the GET's status and Content-Length, no body", async () => {
    const { gateway } = recordingGateway()
    const answer = await createFetchHandler(gateway)(at('/api/v1/', { method: 'HEAD' }))
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-length')).toBe(JSON_LENGTH)
    expect(answer.body).toBeNull()
  })

  it('HEAD has no body even when a gateway hands one back', async () => {
    const { gateway } = recordingGateway(() => ({ status: 200, headers: {}, body: JSON_BODY }))
    const answer = await createFetchHandler(gateway)(at('/api/v1/', { method: 'HEAD' }))
    expect(answer.body).toBeNull()
  })

  it('304: no body, ETag and Cache-Control kept', async () => {
    const { gateway } = recordingGateway()
    const answer = await createFetchHandler(gateway)(at('/api/v1/', { headers: { 'if-none-match': 'W/"abc"' } }))
    expect(answer.status).toBe(304)
    expect(answer.body).toBeNull()
    expect(answer.headers.get('etag')).toBe('W/"abc"')
    expect(answer.headers.get('cache-control')).toBe('public, max-age=60')
  })
})

describe('createFetchHandler: paths that are not the gateway’s', () => {
  it('outside basePath: the shared JSON 404, linking the index under basePath, the gateway not asked', async () => {
    const { gateway, seen } = recordingGateway()
    const handler = createFetchHandler(gateway, { basePath: '/data' })
    for (const path of ['/database/api/v1/', '/api/v1/', '/']) {
      const answer = await handler(at(path))
      expect(answer.status, path).toBe(404)
      expect(answer.headers.get('content-type')).toBe(jsonType)
      const body = await errorOf(answer)
      expect(body.error).toMatchObject({ status: 404, code: 'route_not_found' })
      expect(body._links.api_index).toBe('/data/api/v1/')
    }
    expect(seen).toHaveLength(0)
  })

  it('below basePath but not owned: the gateway’s own 404', async () => {
    const gateway = createGateway({ sources: [empty], onError: () => {} })
    const answer = await createFetchHandler(gateway, { basePath: '/data' })(at('/data/health'))
    expect(answer.status).toBe(404)
    const { error } = await errorOf(answer)
    expect(error).toMatchObject({ code: 'route_not_found', message: expect.stringContaining('/health') })
  })

  it('HEAD of a path outside basePath: the 404 without a body', async () => {
    const { gateway } = recordingGateway()
    const answer = await createFetchHandler(gateway, { basePath: '/data' })(at('/elsewhere', { method: 'HEAD' }))
    expect(answer.status).toBe(404)
    expect(answer.body).toBeNull()
  })
})

describe('createFetchHandler: errors', () => {
  const failing = (error: unknown): Gateway => ({ owns: () => true, handle: () => Promise.reject(error) })

  it('a thrown error is the shared 500 whose cause is not shown, and onError hears it', async () => {
    const onError = vi.fn()
    const cause = Object.assign(new Error('secret detail at /srv/app.js:1'), { status: 400 })
    const answer = await createFetchHandler(failing(cause), { basePath: '/data', onError })(at('/data/api/v1/'))
    expect(answer.status).toBe(500)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const text = await answer.text()
    expect(text).not.toContain('secret')
    expect(JSON.parse(text)).toMatchObject({
      error: { status: 500, code: 'internal_error' },
      _links: { api_index: '/data/api/v1/' },
    })
    expect(onError).toHaveBeenCalledWith(cause)
  })

  it('a gateway that throws instead of rejecting: the same 500', async () => {
    const onError = vi.fn()
    const throwing: Gateway = {
      owns: () => true,
      handle: () => {
        throw new RangeError('sync')
      },
    }
    const answer = await createFetchHandler(throwing, { onError })(at('/api/v1/'))
    expect(answer.status).toBe(500)
    expect(onError).toHaveBeenCalledWith(expect.any(RangeError))
  })

  it('a clientAddress that throws, or an onError that throws, still ends in the 500', async () => {
    const { gateway } = recordingGateway()
    const handler = createFetchHandler(gateway, {
      clientAddress: () => {
        throw new TypeError('no server')
      },
      onError: () => {
        throw new Error('listener broke')
      },
    })
    const answer = await handler(at('/api/v1/'))
    expect(answer.status).toBe(500)
    expect((await errorOf(answer)).error.code).toBe('internal_error')
  })
})

describe('createFetchHandler: request bodies, through the core’s feedback route', () => {
  const post = (body: RequestInit['body'], contentType = 'application/json') =>
    // duplex: what Node asks of a stream body; the DOM types do not know it yet.
    at('/api/v1/feedback', {
      method: 'POST',
      body,
      headers: { 'content-type': contentType },
      duplex: 'half',
    } as RequestInit)
  const setup = () => {
    const received: unknown[] = []
    const onError = vi.fn()
    const gateway = createGateway({ sources: [empty], onError, onFeedback: (item) => void received.push(item) })
    return { handler: createFetchHandler(gateway, { onError }), received, onError }
  }

  it('well-formed JSON is accepted', async () => {
    const { handler, received } = setup()
    const answer = await handler(post('{"message":"Nyttig – takk"}'))
    expect(answer.status).toBe(202)
    expect(received).toMatchObject([{ message: 'Nyttig – takk' }])
  })

  it('a malformed body is the shared 400, never a 500', async () => {
    const { handler, onError } = setup()
    for (const body of ['{"message":', '', new Uint8Array([0x1f, 0x8b, 0x08, 0x00])]) {
      const answer = await handler(post(body))
      expect(answer.status).toBe(400)
      expect((await errorOf(answer)).error.code).toBe('invalid_body')
    }
    expect(onError).not.toHaveBeenCalled()
  })

  it('not JSON: 415, as through every adapter', async () => {
    const answer = await setup().handler(post('Useful', 'text/plain'))
    expect(answer.status).toBe(415)
  })

  it('16 KB is accepted, a byte more is the 413 naming the rule', async () => {
    const { handler } = setup()
    const exactly = (bytes: number) => `{"message":"x"${' '.repeat(bytes - 15)}}`
    expect(Buffer.byteLength(exactly(16 * 1024))).toBe(16 * 1024)
    expect((await handler(post(exactly(16 * 1024)))).status).toBe(202)
    const over = await handler(post(exactly(16 * 1024 + 1)))
    expect(over.status).toBe(413)
    const { error } = await errorOf(over)
    expect(error).toMatchObject({ code: 'body_too_large', details: [{ parameter: 'body', rule: 'max_size' }] })
  })

  it('413 for too much text/plain: the limit comes before the type, as in readRequestBody', async () => {
    const answer = await setup().handler(post('x'.repeat(17 * 1024), 'text/plain'))
    expect(answer.status).toBe(413)
  })

  it('stops reading an endless body at the limit instead of holding it all', async () => {
    let pulled = 0
    let cancelled = false
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(1024).fill(0x20))
      },
      cancel() {
        cancelled = true
      },
    })
    const answer = await setup().handler(post(endless))
    expect(answer.status).toBe(413)
    expect(pulled).toBeLessThan(20)
    expect(cancelled).toBe(true)
  })

  it('a body another handler already read is no body: the 400 that says it is required', async () => {
    const { handler } = setup()
    const request = post('{"message":"read twice"}')
    await request.text()
    const answer = await handler(request)
    expect(answer.status).toBe(400)
    expect((await errorOf(answer)).error.details?.[0]).toMatchObject({ parameter: 'body', rule: 'required' })
  })
})

describe("createFetchHandler: every answer through the gateway's one exit", () => {
  it('a path outside basePath, an answer below it and a thrown error all pass onResponse', async () => {
    const seen: string[] = []
    const gateway = createGateway({
      sources: [empty],
      onError: () => {},
      onResponse(response, request) {
        seen.push(`${response.status} ${request.path}`)
        response.headers['x-exit'] = 'yes'
      },
    })
    const handler = createFetchHandler(gateway, { basePath: '/data' })
    const outside = await handler(at('/favicon.ico'))
    expect(outside.status).toBe(404)
    expect(outside.headers.get('x-exit')).toBe('yes')
    const below = await handler(at('/data/api/v1/kilder'))
    expect(below.status).toBe(200)
    expect(below.headers.get('x-exit')).toBe('yes')
    const broken = createFetchHandler(gateway, {
      basePath: '/data',
      clientAddress: () => {
        throw new Error('no address')
      },
    })
    const failed = await broken(at('/data/api/v1/kilder'))
    expect(failed.status).toBe(500)
    expect(failed.headers.get('x-exit')).toBe('yes')
    expect(seen).toEqual(['404 /favicon.ico', '200 /api/v1/kilder', '500 /api/v1/kilder'])
  })
})
