import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { brregFixtures, generateUnderenheter, startFakeBrreg, type FakeBrreg } from './testing/fake-brreg.js'
import { underenheterForSelskap as operation } from './underenheter-for-selskap.js'
import { testContext } from './testing/test-context.js'

const PARENT = '912346021'

const run = (fake: FakeBrreg, org_nr: string, limit = 25, offset = 0) => {
  const ctx = testContext(fake.baseUrl, 'underenheter_for_selskap')
  return operation.run({ org_nr, limit, offset }, ctx).then((result) => ({ result, ctx }))
}

describe('underenheter_for_selskap', () => {
  let fake: FakeBrreg
  beforeAll(async () => {
    fake = await startFakeBrreg()
  })
  afterAll(() => fake.close())

  it('lists the branches of the parent only, mapped like selskapsdetaljer', async () => {
    const { result, ctx } = await run(fake, PARENT)
    expect(() => v.parse(operation.output, result.data)).not.toThrow()
    expect(result.data.map((unit) => unit.navn)).toEqual([
      'NORDLYS KAFÉDRIFT AS AVD TORGET',
      'NORDLYS KAFÉDRIFT AS AVD GLASSHUSET',
      'NORDLYS KAFÉDRIFT AS AVD NARVIK',
      'NORDLYS KAFÉDRIFT AS AVD TROMSØ',
      'NORDLYS KAFÉDRIFT AS AVD SVOLVÆR',
    ])
    expect(result.data[4]).toMatchObject({
      enhetstype: 'underenhet',
      overordnetEnhet: PARENT,
      antallAnsatte: null,
      harRegistrertAntallAnsatte: false,
      beliggenhetsadresse: { kommune: 'VÅGAN', adresse: ['Vestfjordgata 2'] },
    })
    expect(result.page).toEqual({ hasMore: false, total: 5 })
    expect(ctx.calls).toEqual([`${fake.baseUrl}/underenheter?overordnetEnhet=${PARENT}&page=0&size=100`])
    expect(result.sourceApi).toBe(ctx.calls[0])
    expect(operation.entities?.(result.data.slice(0, 1), { org_nr: PARENT, limit: 25, offset: 0 })).toEqual([
      {
        type: 'organization',
        id: '812345605',
        name: 'NORDLYS KAFÉDRIFT AS AVD TORGET',
      },
    ])
  })

  it('pages with an offset that is not a multiple of the limit', async () => {
    const { result, ctx } = await run(fake, PARENT, 2, 1)
    expect(result.data.map((unit) => unit.organisasjonsnummer)).toEqual(['812345737', '812345869'])
    expect(result.page).toEqual({ hasMore: true, total: 5 })
    expect(ctx.calls).toEqual([`${fake.baseUrl}/underenheter?overordnetEnhet=${PARENT}&page=0&size=100`])
  })

  it('answers a company without branches with an empty list, after checking it exists', async () => {
    const { result, ctx } = await run(fake, '912345602')
    expect(result.data).toEqual([])
    expect(result.page).toEqual({ hasMore: false, total: 0 })
    expect(ctx.calls[1]).toBe(`${fake.baseUrl}/enheter/912345602`)
    expect(result.sourceApi).toBe(ctx.calls[0])
  })

  it('is a 404 for an unknown parent', async () => {
    await expect(run(fake, '100000040')).rejects.toMatchObject({ status: 404, code: 'entity_not_found' })
  })

  it('answers a removed parent with an empty list', async () => {
    const { result } = await run(fake, '912346374')
    expect(result.data).toEqual([])
  })

  describe('paging over many branches exactly like Brønnøysund', () => {
    const totals = [0, 1, 24, 25, 26, 99, 101, 237]
    const fakes = new Map<number, FakeBrreg>()
    beforeAll(async () => {
      for (const total of totals) {
        fakes.set(total, await startFakeBrreg({ underenheter: generateUnderenheter(PARENT, total) }))
      }
    })
    afterAll(async () => {
      for (const each of fakes.values()) await each.close()
    })

    it('returns rows [offset, offset + limit) with the right hasMore and total for every combination', async () => {
      for (const total of totals) {
        const all = generateUnderenheter(PARENT, total).map((unit) => unit.organisasjonsnummer)
        const each = fakes.get(total) as FakeBrreg
        for (const limit of [1, 7, 25, 100]) {
          for (const offset of [0, 1, 6, 24, 25, 26, 50, 99, 100, 101, 236, 237, 500]) {
            const { result } = await run(each, PARENT, limit, offset)
            const label = `total ${total}, limit ${limit}, offset ${offset}`
            expect(
              result.data.map((unit) => unit.organisasjonsnummer),
              label,
            ).toEqual(all.slice(offset, offset + limit))
            expect(result.page, label).toEqual({ hasMore: offset + limit < total, total })
          }
        }
      }
    })

    it('walks every branch exactly once with limit 7', async () => {
      const each = fakes.get(237) as FakeBrreg
      const seen: string[] = []
      let offset = 0
      for (;;) {
        const { result } = await run(each, PARENT, 7, offset)
        seen.push(...result.data.map((unit) => unit.organisasjonsnummer))
        if (!result.page?.hasMore) break
        offset += 7
      }
      expect(seen).toEqual(generateUnderenheter(PARENT, 237).map((unit) => unit.organisasjonsnummer))
    })
  })

  describe('at the 10 000-row depth limit', () => {
    let deep: FakeBrreg
    beforeAll(async () => {
      deep = await startFakeBrreg({
        enheter: brregFixtures().enheter,
        underenheter: generateUnderenheter(PARENT, 10_050),
      })
    })
    afterAll(() => deep.close())

    it('serves up to the last reachable row and says nothing more can be paged', async () => {
      const { result } = await run(deep, PARENT, 25, 9990)
      expect(result.data).toHaveLength(10)
      expect(result.data[9]?.navn).toBe('AVDELING 10000')
      expect(result.page).toEqual({ hasMore: false, total: 10_050 })
      // Every page asked for lies within the depth limit, so Brønnøysund never answered 400.
      for (const call of deep.calls) {
        if (call.path !== '/underenheter') continue
        expect((Number(call.query['page']) + 1) * Number(call.query['size'])).toBeLessThanOrEqual(10_000)
      }
    })

    it('answers an offset past the limit with an empty page and the total', async () => {
      const { result } = await run(deep, PARENT, 25, 10_000)
      expect(result.data).toEqual([])
      expect(result.page).toEqual({ hasMore: false, total: 10_050 })
    })
  })
})
