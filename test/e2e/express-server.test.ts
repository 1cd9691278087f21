import { request as httpRequest, type Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/express-server/src/app.js'
import { startFakeAvinor, type FakeAvinor } from '@allmenning/sources/avinor/testing'
import { startFakeBrreg, type FakeBrreg } from '@allmenning/sources/firmafakta/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'
import { listenAsTheExamples } from '../support/example-server.js'
import { offlineEnvironment } from '../support/offline-environment.js'

let fake: FakeUpstream
let avinor: FakeAvinor
let brreg: FakeBrreg
let server: Server
let base: string

beforeAll(async () => {
  fake = await startFakeStatnett()
  avinor = await startFakeAvinor()
  brreg = await startFakeBrreg()
  const env = offlineEnvironment({
    ALLMENNING_UPSTREAM_STATNETT: fake.baseUrl,
    ALLMENNING_UPSTREAM_AVINOR: avinor.baseUrl,
    ALLMENNING_UPSTREAM_BRREG: brreg.baseUrl,
  })
  const app = createApp(env, { onError: () => {} })
  ;({ server, base } = await listenAsTheExamples(app))
})
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await Promise.all([fake.close(), avinor.close(), brreg.close()])
})

/** A raw request, so paths and queries reach the server byte for byte as written. */
function raw(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        )
      })
      req.on('error', reject)
      req.end()
    },
  )
}

describe('the example Express server against a local Statnett', () => {
  it('answers an operation with the envelope, its ETag and Cache-Control', async () => {
    const res = await raw('/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=2')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(res.headers.etag).toMatch(/^W\/".+"$/)
    expect(res.headers['cache-control']).toBe('public, max-age=300')
    const body = JSON.parse(res.body)
    expect(Object.keys(body)).toEqual([
      'source',
      'operation',
      'parameters',
      'data',
      'entities',
      '_meta',
      '_provenance',
      '_links',
    ])
    expect(body).toMatchObject({
      source: 'statnett',
      operation: 'get_physical_flow',
      parameters: { area: 'NO2', limit: 2, offset: 0 },
      _meta: { language: 'en', pagination: { limit: 2, offset: 0, returned: 2, has_more_results: true, total: 4 } },
      _provenance: {
        data: { source: 'Statnett SF', source_api: `${fake.baseUrl}/PhysicalFlowMap/GetFlow` },
        entities: { source: 'allmenning', derived_from: 'data' },
      },
      _links: {
        self: '/api/v1/kilder/statnett/get_physical_flow?area=NO2&limit=2&offset=0',
        source: '/api/v1/kilder/statnett',
      },
    })
    expect(body.data).toHaveLength(2)
    expect(body._meta.retrieved_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  })

  it('answers If-None-Match with an empty 304 and HEAD with headers only', async () => {
    const first = await raw('/api/v1/kilder/statnett/get_power_situation')
    const conditional = await raw('/api/v1/kilder/statnett/get_power_situation', {
      headers: { 'if-none-match': String(first.headers.etag) },
    })
    expect(conditional.status).toBe(304)
    expect(conditional.body).toBe('')
    expect(conditional.headers.etag).toBe(first.headers.etag)
    const head = await raw('/api/v1/kilder/statnett/get_power_situation', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(first.body)))
  })

  it.each([
    ['/api/v1/kilder/statnett/get_physical_flow?limit=0', 400, 'invalid_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?limit=101', 400, 'invalid_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?limit=abc', 400, 'invalid_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?offset=-1', 400, 'invalid_parameter'],
    ['/api/v1/kilder/..%2F..%2Fetc', 404, 'source_not_found'],
    ['/api/v1/kilder/statnett/get_physical_flow?area=%E0%A4%A', 400, 'invalid_query_encoding'],
    ['/api/v1/kilder/statnett/get_physical_flow?__proto__=1', 400, 'unknown_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?constructor=1', 400, 'unknown_parameter'],
    ['/api/v1/kilder/statnett/get_physical_flow?area=NO1&area=NO2', 400, 'repeated_parameter'],
    [`/api/v1/kilder/statnett/get_physical_flow?area=${'N'.repeat(16 * 1024)}`, 414, 'query_too_long'],
    ['/api/v1/kilder/statnett/nope', 404, 'operation_not_found'],
  ])('%s is a clear %i', async (path, status, code) => {
    const res = await raw(path)
    expect(res.status).toBe(status)
    const body = JSON.parse(res.body)
    expect(body.error).toMatchObject({ status, code })
    expect(body.error.message).not.toMatch(/\n\s+at /)
  })

  it('answers a POST to an operation with a 405 and Allow', async () => {
    const res = await raw('/api/v1/kilder/statnett/get_physical_flow', { method: 'POST' })
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
  })

  it("takes feedback, reading its body itself ahead of the host app's parser", async () => {
    const res = await fetch(`${base}/api/v1/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'statnett', message: 'Useful' }),
    })
    expect(res.status).toBe(202)
    expect(((await res.json()) as { status: string }).status).toBe('accepted')
  })

  it('leaves the host app its own routes', async () => {
    expect(JSON.parse((await raw('/health')).body)).toEqual({ status: 'ok' })
    expect((await raw('/elsewhere')).status).toBe(404)
  })

  it('serves discovery: index, descriptor, schema, OpenAPI and search', async () => {
    for (const path of [
      '/api/v1/',
      '/api/v1/kilder',
      '/api/v1/kilder/statnett?view=compact',
      '/api/v1/kilder/statnett/get_physical_flow/schema',
      '/api/v1/openapi.json',
      '/api/v1/sok/alle?q=str%C3%B8m',
    ]) {
      const res = await raw(path)
      expect(res.status, path).toBe(200)
    }
  })
})

describe('the example Express server against a local Avinor', () => {
  it('answers flights with Norwegian letters intact, from ISO-8859-1 bytes to UTF-8 JSON', async () => {
    const res = await raw('/api/v1/kilder/avinor/get_flights?airport_id=tos&direction=departures')
    expect(res.status).toBe(200)
    const body = JSON.parse(res.body)
    expect(body.parameters).toMatchObject({
      airport_id: 'TOS',
      direction: 'departures',
      hours_back: 1,
      hours_ahead: 7,
      include_codeshare: false,
      max_results: 100,
    })
    expect(body.data.flights.length).toBeGreaterThan(0)
    expect(body.data.flights.every((f: { direction: string }) => f.direction === 'departure')).toBe(true)
    expect(body.data.has_more_results).toBe(false)
    expect(body.entities[0]).toMatchObject({ type: 'airport', id: 'TOS', name: 'Tromsø' })
    expect(res.headers['cache-control']).toBe('public, max-age=60')
    expect(body._provenance.data.source_api).toMatch(
      new RegExp(`^${avinor.baseUrl}/XmlFeed/v1\\.0\\?airport=TOS&TimeFrom=1&TimeTo=7`),
    )
  })

  it.each([
    ['/api/v1/kilder/avinor/get_flights?airport_id=XYZ', 404, 'entity_not_found', undefined],
    ['/api/v1/kilder/avinor/get_flights?airport_id=TOS&hours_back=97', 400, 'invalid_parameter', 'hours_back'],
    ['/api/v1/kilder/avinor/get_flights?airport_id=TOS&direction=both', 400, 'invalid_parameter', 'direction'],
    ['/api/v1/kilder/avinor/get_flights', 400, 'invalid_parameter', 'airport_id'],
  ])('%s is a clear %i', async (path, status, code, parameter) => {
    const res = await raw(path)
    const body = JSON.parse(res.body)
    expect(res.status).toBe(status)
    expect(body.error.code).toBe(code)
    if (parameter) expect(body.error.details[0].parameter).toBe(parameter)
  })

  it('finds the airport of a partial name', async () => {
    const body = JSON.parse(
      (await raw(`/api/v1/kilder/avinor/lookup_airport?query=${encodeURIComponent('bodø')}`)).body,
    )
    expect(body.data[0]).toEqual({ code: 'BOO', name: 'Bodø' })
  })
})

describe('the example Express server against a local Brønnøysund', () => {
  it('answers company details with provenance naming the exact URL', async () => {
    const res = await raw('/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=976030788')
    expect(res.status).toBe(200)
    const body = JSON.parse(res.body)
    expect(body.data).toMatchObject({ organisasjonsnummer: '976030788', navn: 'SESAM AS', status: 'active' })
    expect(body._provenance.data.source_api).toBe(`${brreg.baseUrl}/enheter/976030788`)
    expect(body.entities[0]).toMatchObject({ type: 'organization', id: '976030788' })
  })

  it.each([
    ['org_nr=12345678', 'length'],
    ['org_nr=12345678X', 'regex'],
    ['org_nr=123456789', 'check'],
  ])('rejects %s naming the rule (%s)', async (query, rule) => {
    const res = await raw(`/api/v1/kilder/firmafakta/selskapsdetaljer?${query}`)
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body).error.details).toEqual([expect.objectContaining({ parameter: 'org_nr', rule })])
  })

  it('answers an unknown number with a 404 and a removed company truthfully', async () => {
    const unknown = await raw('/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=999999980')
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body).error.code).toBe('entity_not_found')
    const removed = await raw('/api/v1/kilder/firmafakta/selskapsdetaljer?org_nr=912346374')
    expect(removed.status).toBe(200)
    expect(JSON.parse(removed.body).data).toMatchObject({ status: 'removed', slettedato: '2017-10-20' })
  })

  it('ranks the exact name first among ambiguous ones', async () => {
    const body = JSON.parse(
      (await raw('/api/v1/kilder/firmafakta/organisasjonsnummer_for_selskap?company_name=sesam')).body,
    )
    expect(body.data[0]).toMatchObject({ navn: 'SESAM AS', organisasjonsnummer: '976030788' })
    expect(body.data.length).toBeGreaterThan(3)
  })

  it('discovers every built-in source by topic words', async () => {
    const search = async (q: string) =>
      JSON.parse((await raw(`/api/v1/sok/alle?q=${encodeURIComponent(q)}`)).body).results.map(
        (r: { id: string }) => r.id,
      )
    expect(await search('flyplass')).toEqual(['avinor'])
    expect(await search('organisasjonsnummer')).toEqual(['firmafakta'])
    expect(await search('strøm')).toEqual(['statnett', 'strompris'])
    expect((await search('strømpris'))[0]).toBe('strompris')
    expect(await search('tidevann')).toEqual(['weather'])
  })
})
