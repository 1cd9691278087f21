import { describe, expect, it } from 'vitest'
import { get, shopGateway, startShopUpstreams } from '../testing/shop-fixture.js'
import { jsonRequestLog, type RequestLogLine } from './json-request-log.js'

describe('jsonRequestLog', () => {
  it('writes one JSON line per request: time, method, path, route, status, duration, source, operation, cache outcome, request id', async () => {
    const fake = await startShopUpstreams()
    try {
      const lines: string[] = []
      const gateway = shopGateway(fake, {
        observers: [jsonRequestLog({ write: (line) => lines.push(line) })],
        rateLimit: undefined,
      })
      await get(gateway, '/api/v1/kilder/shop/depot_items', 'kind=secret', { headers: { 'x-request-id': 'req-42' } })
      await get(gateway, '/api/v1/kilder/shop/depot_items', 'kind=secret')
      await get(gateway, '/api/v1/nowhere')
      expect(lines).toHaveLength(3)
      const [first, second, third] = lines.map((line) => JSON.parse(line) as RequestLogLine)
      expect(Object.keys(first!)).toEqual([
        'time',
        'method',
        'path',
        'route',
        'status',
        'duration_ms',
        'source',
        'operation',
        'cache',
        'request_id',
      ])
      expect(first).toEqual({
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        method: 'GET',
        path: '/api/v1/kilder/shop/depot_items',
        route: '/api/v1/kilder/{source}/{operation}',
        status: 200,
        duration_ms: expect.any(Number),
        source: 'shop',
        operation: 'depot_items',
        cache: 'miss',
        request_id: 'req-42',
      })
      expect(first!.duration_ms).toBeGreaterThan(0)
      expect(second).toMatchObject({ cache: 'hit', request_id: null })
      expect(third).toMatchObject({ route: null, status: 404, source: null, operation: null, cache: null })
      // The query string may carry what a client would not see logged.
      expect(lines.join('\n')).not.toContain('secret')
    } finally {
      await fake.close()
    }
  })

  it("keeps a client's odd path and request id inside one well-formed line", () => {
    const lines: string[] = []
    const log = jsonRequestLog({ write: (line) => lines.push(line) })
    const path = '/api/v1/"quoted"\\back\nnew\u2028line'
    const request = { method: 'GET', path, query: '', headers: { 'x-request-id': ['a"b\nc', 'second'] } }
    log.requestFinished!({
      request,
      method: 'GET',
      startedAt: 0,
      route: undefined,
      source: undefined,
      operation: undefined,
      cache: undefined,
      joined: undefined,
      status: 404,
      durationMs: 1.23456,
    })
    expect(lines).toHaveLength(1)
    expect(lines[0]!.split('\n')).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({
      path,
      route: null,
      status: 404,
      duration_ms: 1.235,
      request_id: 'a"b\nc',
    })
  })
})
