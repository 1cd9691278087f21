import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { avinorContext, startFakeAvinor, type FakeAvinor } from './testing/fake-avinor.js'
import { createAvinorFeeds } from './feed-client.js'
import { createLookupAirline } from './name-lookup.js'

describe('lookup_airline', () => {
  let fake: FakeAvinor
  let lookupAirline: ReturnType<typeof createLookupAirline>
  const run = (query: string) =>
    lookupAirline.run(
      { ...v.parse(v.object(lookupAirline.parameters), { query }), limit: 25, offset: 0 },
      avinorContext(fake.baseUrl, 'lookup_airline'),
    )

  beforeEach(async () => {
    fake = await startFakeAvinor()
    lookupAirline = createLookupAirline(createAvinorFeeds())
  })
  afterEach(async () => {
    await fake.close()
  })

  it('ranks the exact code first, then names starting with the query', async () => {
    const result = await run('sk')
    expect(result.data).toEqual([
      { code: 'SK', name: 'SAS' },
      { code: 'GQ', name: 'Sky Express' },
    ])
    expect(v.parse(lookupAirline.output, result.data)).toEqual(result.data)
    expect(result.sourceApi).toBe(`${fake.baseUrl}/airlineNames/v1.0`)
  })

  it('finds by partial name, case- and diacritic-insensitively', async () => {
    expect((await run('WIDERØE')).data).toEqual([{ code: 'WF', name: 'Widerøe' }])
    expect((await run('wideroe')).data).toEqual([{ code: 'WF', name: 'Widerøe' }])
    expect((await run('norwegian')).data.map((a) => a.code)).toEqual(['DY', 'D8'])
    expect((await run('åland')).data).toEqual([{ code: 'HX', name: 'Air Åland & Co' }])
  })

  it('answers an empty list when nothing matches', async () => {
    expect((await run('zeppelin')).data).toEqual([])
  })

  it('names each airline as an entity', async () => {
    const params = { query: 'DY', limit: 25, offset: 0 }
    const { data } = await lookupAirline.run(params, avinorContext(fake.baseUrl))
    expect(lookupAirline.entities?.(data, params)).toEqual([{ type: 'airline', id: 'DY', name: 'Norwegian' }])
  })

  it('is a 502 when the list does not answer', async () => {
    fake.misbehave('/airlineNames/v1.0', 'server-error')
    await expect(run('sas')).rejects.toMatchObject({ status: 502, code: 'upstream_error' })
  })
})
