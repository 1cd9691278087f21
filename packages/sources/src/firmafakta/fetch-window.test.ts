import { brreg } from './brreg-upstream.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeBrreg, generateUnderenheter, type FakeBrreg } from './testing/fake-brreg.js'
import { UpstreamError } from '@allmenning/core/source'
import { fetchWindow } from './fetch-window.js'
import { testContext } from './testing/test-context.js'

const PARENT = '912346021'

describe('the fake Enhetsregisteret', () => {
  let fake: FakeBrreg
  beforeAll(async () => {
    fake = await startFakeBrreg({ underenheter: generateUnderenheter(PARENT, 45) })
  })
  afterAll(() => fake.close())

  const get = (path: string, accept = 'application/json') => fetch(`${fake.baseUrl}${path}`, { headers: { accept } })

  it('pages like Spring HATEOAS, with first/prev/self/next/last links', async () => {
    const res = await get(`/underenheter?overordnetEnhet=${PARENT}&page=1&size=20`)
    const body = (await res.json()) as {
      _embedded: { underenheter: { organisasjonsnummer: string }[] }
      _links: Record<string, { href: string }>
      page: unknown
    }
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(body.page).toEqual({ size: 20, totalElements: 45, totalPages: 3, number: 1 })
    expect(body._embedded.underenheter).toHaveLength(20)
    expect(Object.keys(body._links)).toEqual(['first', 'prev', 'self', 'next', 'last'])
    expect(body._links['next']?.href).toBe(`${fake.baseUrl}/underenheter?overordnetEnhet=${PARENT}&page=2&size=20`)
  })

  it('answers an empty search without an _embedded key', async () => {
    const res = await get('/enheter?navn=finnesikke')
    const body = (await res.json()) as Record<string, unknown>
    expect(Object.keys(body)).toEqual(['_links', 'page'])
    expect(body['page']).toEqual({ size: 20, totalElements: 0, totalPages: 0, number: 0 })
  })

  it('refuses page × size over 10 000 with the validation-error body', async () => {
    const res = await get('/enheter?navn=sesam&page=101&size=100')
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({
      status: 400,
      feilmelding: 'Ugyldig forespørsel',
      valideringsfeil: [{ parametere: ['page', 'size'], feilaktigVerdi: 'page=101, size=100' }],
    })
  })

  it('echoes a pinned media type and refuses one it does not serve', async () => {
    const pinned = await get('/enheter/976030788', 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8')
    expect(pinned.headers.get('content-type')).toBe(
      'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8',
    )
    const wrong = await get('/enheter/976030788', 'application/vnd.brreg.enhetsregisteret.enhet.v9+json')
    expect(wrong.status).toBe(406)
  })

  it('answers 404 for an unknown number and 410 with a body for a removed one', async () => {
    expect((await get('/enheter/100000040')).status).toBe(404)
    const removed = await get('/enheter/912346374')
    expect(removed.status).toBe(410)
    expect(await removed.json()).toMatchObject({ navn: 'SLETTET ENHET AS', slettedato: '2017-10-20' })
  })

  it('records calls and fails on demand', async () => {
    fake.failWith(500, 1)
    expect((await get('/enheter/976030788')).status).toBe(500)
    expect((await get('/enheter/976030788')).status).toBe(200)
    expect(fake.calls.at(-1)).toEqual({ path: '/enheter/976030788', query: {}, accept: 'application/json' })
  })
})

describe('fetchWindow', () => {
  const totals = [0, 1, 7, 20, 45, 101]
  const fakes = new Map<number, FakeBrreg>()
  beforeAll(async () => {
    for (const total of totals)
      fakes.set(total, await startFakeBrreg({ underenheter: generateUnderenheter(PARENT, total) }))
  })
  afterAll(async () => {
    for (const fake of fakes.values()) await fake.close()
  })

  it('returns exactly rows [start, end) for many windows over a Brønnøysund-paged list', async () => {
    for (const total of totals) {
      const fake = fakes.get(total) as FakeBrreg
      const names = generateUnderenheter(PARENT, total).map((unit) => unit.navn)
      for (const limit of [1, 3, 7, 20, 25, 100]) {
        for (const start of [0, 1, 2, 6, 7, 19, 20, 21, 44, 45, 50, 99, 100, 101, 150]) {
          const client = testContext(fake.baseUrl, 'underenheter_for_selskap').upstream(brreg)
          const window = await fetchWindow(
            client,
            { path: '/underenheter', resource: 'underenhet', query: { overordnetEnhet: PARENT } },
            start,
            start + limit,
          )
          expect(
            window.rows.map((unit) => unit.navn),
            `total ${total}, offset ${start}, limit ${limit}`,
          ).toEqual(names.slice(start, start + limit))
          expect(window.total).toBe(total)
        }
      }
    }
  })

  it('asks for the pinned sub-unit media type', async () => {
    const fake = fakes.get(7) as FakeBrreg
    const client = testContext(fake.baseUrl, 'underenheter_for_selskap').upstream(brreg)
    await fetchWindow(client, { path: '/underenheter', resource: 'underenhet', query: {} }, 0, 5)
    expect(fake.calls.at(-1)?.accept).toBe('application/vnd.brreg.enhetsregisteret.underenhet.v2+json;charset=UTF-8')
  })

  it('turns a search page of the wrong shape into a 502 naming Brønnøysund', async () => {
    const fake = fakes.get(1) as FakeBrreg
    fake.upstream.route('/enheter', () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"_embedded":{}}',
    }))
    const client = testContext(fake.baseUrl, 'organisasjonsnummer_for_selskap').upstream(brreg)
    const failure = await fetchWindow(
      client,
      { path: '/enheter', resource: 'enhet', query: { navn: 'x' } },
      0,
      5,
    ).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(UpstreamError)
    expect((failure as UpstreamError).status).toBe(502)
    expect((failure as UpstreamError).message).toContain('brreg')
  })
})
