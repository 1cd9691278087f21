import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type Gateway } from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { startFakeAvinor, type FakeAvinor } from '@allmenning/sources/avinor/testing'
import { startFakeBrreg, type FakeBrreg } from '@allmenning/sources/firmafakta/testing'
import { startFakeStatnett } from '@allmenning/sources/statnett/testing'
import type { FakeUpstream } from '@allmenning/core/testing'
import { offlineEnvironment } from '../support/offline-environment.js'

// Pieces a hostile or careless client puts in paths and queries.
const nasty = fc.constantFrom(
  '',
  '%',
  '%E0%A4%A',
  '%ZZ',
  '%00',
  '%2F',
  '..',
  '../..',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '+',
  '&',
  '=',
  '==',
  '?',
  '#',
  'æøå',
  '%C3%A6',
  'NO1',
  'OSL',
  '976030788',
  '-1',
  '0',
  '1e9',
  '99999999999999999999',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  ' ',
  '\u0000',
  '\uD800',
  'a'.repeat(300),
)
const word = fc.oneof(nasty, fc.string({ maxLength: 12 }), fc.stringMatching(/^[a-z_]{1,20}$/))
const knownNames = fc.constantFrom(
  'limit',
  'offset',
  'area',
  'airport_id',
  'direction',
  'hours_back',
  'hours_ahead',
  'include_codeshare',
  'max_results',
  'query',
  'org_nr',
  'company_name',
  'view',
  'q',
  'mode',
  'sources',
)
const pair = fc.tuple(fc.oneof(knownNames, word), word).map(([k, v]) => `${k}=${v}`)
const query = fc.array(fc.oneof(pair, word), { maxLength: 6 }).map((parts) => parts.join('&'))
const segment = fc.oneof(
  fc.constantFrom(
    'api',
    'v1',
    'kilder',
    'sok',
    'alle',
    'schema',
    'openapi.json',
    'feedback',
    'steder',
    'statnett',
    'avinor',
    'firmafakta',
    'get_flights',
    'get_physical_flow',
    'selskapsdetaljer',
    'lookup_airport',
  ),
  word,
)
const operations = fc.constantFrom(
  'statnett/get_physical_flow',
  'statnett/get_production_consumption',
  'statnett/get_power_situation',
  'avinor/get_flights',
  'avinor/lookup_airport',
  'avinor/lookup_airline',
  'firmafakta/organisasjonsnummer_for_selskap',
  'firmafakta/selskapsdetaljer',
  'firmafakta/roller_i_enhet',
  'firmafakta/underenheter_for_selskap',
)
// Mostly real operations and discovery routes, so queries reach validation and upstreams;
// some arbitrary paths, so routing is tried too.
const path = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(operations, fc.boolean())
      .map(([op, schema]) => `/api/v1/kilder/${op}${schema ? '/schema' : ''}`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '/api/v1/',
      '/api/v1/sok/alle',
      '/api/v1/kilder/avinor',
      '/api/v1/feedback',
      '/api/v1/openapi.json',
    ),
  },
  { weight: 2, arbitrary: fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`) },
)
const method = fc.oneof(
  { weight: 8, arbitrary: fc.constant('GET') },
  fc.constantFrom('HEAD', 'get', 'POST', 'DELETE', 'OPTIONS'),
)
const body = fc.oneof(fc.constant(undefined), fc.string({ maxLength: 40 }), fc.json({ maxDepth: 2 }))

let gateway: Gateway
const internal: unknown[] = []
let fakes: [FakeUpstream, FakeAvinor, FakeBrreg]

beforeAll(async () => {
  fakes = [await startFakeStatnett(), await startFakeAvinor(), await startFakeBrreg()]
  gateway = createGateway({
    sources: builtInSources(
      offlineEnvironment({
        ALLMENNING_UPSTREAM_STATNETT: fakes[0].baseUrl,
        ALLMENNING_UPSTREAM_AVINOR: fakes[1].baseUrl,
        ALLMENNING_UPSTREAM_BRREG: fakes[2].baseUrl,
      }),
    ),
    onError: (error, kind) => kind === 'internal' && internal.push(error),
    onFeedback: () => {},
  })
})
afterAll(() => Promise.all(fakes.map((f) => f.close())))

describe('whatever a client sends', () => {
  it('the gateway answers JSON with a known status, the shared error body on errors, and never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, body, async (m, p, q, b) => {
        const res = await gateway.handle({
          method: m,
          path: p,
          query: q,
          headers: { 'content-type': 'application/json' },
          readBody: async () => b,
        })
        expect([200, 202, 304, 400, 404, 405, 414, 415]).toContain(res.status)
        if (m.toUpperCase() === 'HEAD') {
          expect(res.body).toBeNull()
          return
        }
        const json = JSON.parse(res.body!)
        if (res.status >= 400) {
          expect(json.error).toMatchObject({
            status: res.status,
            code: expect.any(String),
            message: expect.any(String),
            details: expect.any(Array),
          })
          expect(res.body).not.toMatch(/\n\s+at /)
        }
      }),
      { numRuns: 2000, seed: 20261122 },
    )
    expect(internal).toEqual([])
  })
})
