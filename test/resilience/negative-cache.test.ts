import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions } from '@allmenning/core'
import { firmafakta } from '@allmenning/sources'
import { startFakeBrreg, type FakeBrreg } from '@allmenning/sources/firmafakta/testing'

let brreg: FakeBrreg
beforeAll(async () => {
  brreg = await startFakeBrreg()
})
afterAll(() => brreg.close())

const gatewayWith = (options: Partial<GatewayOptions> = {}) =>
  createGateway({
    sources: [firmafakta()],
    upstreams: { brreg: { baseUrl: brreg.baseUrl } },
    onError: () => {},
    ...options,
  })
const lookups = (orgNr: string) => brreg.requests.filter((path) => path.includes(orgNr)).length
const details = (gateway: ReturnType<typeof gatewayWith>, orgNr: string) =>
  gateway.handle({
    method: 'GET',
    path: '/api/v1/kilder/firmafakta/selskapsdetaljer',
    query: `org_nr=${orgNr}`,
    headers: {},
  })

describe('an unknown entity is remembered briefly', () => {
  it('answers 50 lookups of the same unknown number with the two Brønnøysund calls of the first', async () => {
    const gateway = gatewayWith()
    const before = lookups('100000040')
    for (let i = 0; i < 50; i++) {
      const res = await details(gateway, '100000040')
      expect(res.status).toBe(404)
      expect(JSON.parse(res.body!).error).toMatchObject({
        status: 404,
        code: 'entity_not_found',
        message: expect.stringContaining('100000040'),
      })
    }
    // /enheter/100000040 and /underenheter/100000040, once.
    expect(lookups('100000040') - before).toBe(2)
  })

  it('says the 404 came from the cache, for how long, and asks again once that is over', async () => {
    const gateway = gatewayWith({ notFoundCacheSeconds: 30 })
    const before = lookups('100000059')
    const first = await details(gateway, '100000059')
    expect(first.headers['cache-status']).toBe('allmenning; fwd=miss; stored')
    expect(first.headers['cache-control']).toBe('public, max-age=30')
    const second = await details(gateway, '100000059')
    expect(second.status).toBe(404)
    expect(second.headers['cache-status']).toMatch(/^allmenning; hit; ttl=\d+$/)
    expect(second.body).toBe(first.body)
    const realNow = Date.now
    Date.now = () => realNow() + 31_000
    try {
      expect((await details(gateway, '100000059')).status).toBe(404)
    } finally {
      Date.now = realNow
    }
    expect(lookups('100000059') - before).toBe(4)
  })

  it('asks every time when turned off, and never remembers an upstream failure', async () => {
    const off = gatewayWith({ notFoundCacheSeconds: 0 })
    const before = lookups('100000067')
    await details(off, '100000067')
    await details(off, '100000067')
    expect(lookups('100000067') - before).toBe(4)

    const gateway = gatewayWith()
    brreg.failWith(503)
    try {
      expect((await details(gateway, '976030788')).status).toBe(502)
    } finally {
      brreg.failWith(undefined)
    }
    expect((await details(gateway, '976030788')).status).toBe(200)
  })
})
