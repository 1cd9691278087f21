import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { UpstreamError } from '@allmenning/core/source'
import { avinorContext, startFakeAvinor, type FakeAvinor } from './testing/fake-avinor.js'
import { createAvinorFeeds } from './feed-client.js'
import { createLookupAirport } from './name-lookup.js'

describe('lookup_airport', () => {
  let fake: FakeAvinor
  let lookupAirport: ReturnType<typeof createLookupAirport>
  const run = (query: string) =>
    lookupAirport.run(
      { ...v.parse(v.object(lookupAirport.parameters), { query }), limit: 25, offset: 0 },
      avinorContext(fake.baseUrl, 'lookup_airport'),
    )

  beforeEach(async () => {
    fake = await startFakeAvinor()
    lookupAirport = createLookupAirport(createAvinorFeeds())
  })
  afterEach(async () => {
    await fake.close()
  })

  it('finds an airport by code and reports the list it searched', async () => {
    const result = await run('tos')
    expect(result.data).toEqual([{ code: 'TOS', name: 'Tromsø' }])
    expect(v.parse(lookupAirport.output, result.data)).toEqual(result.data)
    expect(result.sourceApi).toBe(`${fake.baseUrl}/airportNames/v1.0`)
  })

  it('finds airports by partial name, exact code first, Norwegian letters intact', async () => {
    expect((await run('BER')).data).toEqual([
      { code: 'BER', name: 'Berlin Brandenburg' },
      { code: 'BGO', name: 'Bergen' },
    ])
    expect((await run('bodo')).data).toEqual([{ code: 'BOO', name: 'Bodø' }])
    expect((await run('ørsta')).data).toEqual([{ code: 'HOV', name: 'Ørsta-Volda' }])
  })

  it('fetches the airport list once for many lookups', async () => {
    await Promise.all(['osl', 'bergen', 'tromsø'].map(run))
    await run('alta')
    expect(fake.requestsTo('/airportNames/v1.0')).toHaveLength(1)
    expect(fake.requestsTo('/XmlFeed/v1.0')).toHaveLength(0)
  })

  it('names each airport as an entity that leads to its flights', async () => {
    const params = { query: 'sund', limit: 25, offset: 0 }
    const { data } = await lookupAirport.run(params, avinorContext(fake.baseUrl))
    expect(lookupAirport.entities?.(data, params)).toEqual([
      { type: 'airport', id: 'HAU', name: 'Haugesund' },
      { type: 'airport', id: 'KSU', name: 'Kristiansund' },
      { type: 'airport', id: 'AES', name: 'Ålesund' },
    ])
  })

  it('is a 502 when the list is an HTML page', async () => {
    fake.misbehave('/airportNames/v1.0', 'html')
    await expect(run('oslo')).rejects.toSatisfy(
      (e) =>
        e instanceof UpstreamError &&
        e.code === 'upstream_invalid_response' &&
        e.message === 'Upstream Avinor flight data (avinor) answered an HTML page instead of the airportNames XML',
    )
  })

  it('takes a query of 2 to 100 characters', () => {
    const schema = v.object(lookupAirport.parameters)
    expect(v.safeParse(schema, { query: 'o' }).success).toBe(false)
    expect(v.safeParse(schema, { query: ' o ' }).success).toBe(false)
    expect(v.safeParse(schema, { query: 'x'.repeat(101) }).success).toBe(false)
    expect(v.parse(schema, { query: ' os ' })).toEqual({ query: 'os' })
  })
})
