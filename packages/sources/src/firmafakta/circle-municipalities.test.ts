import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testOperationContext, type FakeUpstream } from '@allmenning/core/testing'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import { recordedAddresses, startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { createRequestBudget } from '../shared/request-budget.js'
import { distanceKm } from '../shared/wgs84-point.js'
import { circleSamples, createCircleMunicipalities } from './circle-municipalities.js'
import { areaAdresser } from './testing/area-fixtures.js'

describe('circleSamples', () => {
  const centre = { lat: 59.913, lon: 10.746 }

  it('samples the centre and eight points on the rim, and for wide circles eight more at half the radius', () => {
    const small = circleSamples(centre, 1)
    expect(small).toHaveLength(9)
    expect(small[0]).toEqual(centre)
    for (const point of small.slice(1)) expect(distanceKm(centre, point)).toBeCloseTo(1, 1)
    const wide = circleSamples(centre, 10)
    expect(wide).toHaveLength(17)
    expect(wide.slice(9).every((point) => Math.abs(distanceKm(centre, point) - 5) < 0.6)).toBe(true)
  })

  it('rounds ring points, so that nearby circles share them', () => {
    expect(circleSamples({ lat: 59.9131, lon: 10.7461 }, 10).slice(1)).toEqual(
      circleSamples({ lat: 59.9129, lon: 10.7459 }, 10).slice(1),
    )
  })
})

describe('createCircleMunicipalities', () => {
  let kartverket: FakeUpstream
  beforeAll(async () => {
    kartverket = await startFakeKartverketAdresser({ addresses: [...recordedAddresses, ...areaAdresser()] })
  })
  afterAll(() => kartverket.close())
  const context = () =>
    testOperationContext({
      source: 'firmafakta',
      operation: 'finn_selskaper_i_omrade',
      upstream: { ...kartverketAdresser, baseUrl: kartverket.baseUrl },
    })
  const budget = () => createRequestBudget({ requests: 100, perMs: 1000, maxWaitMs: 0 })

  it('names the centre’s municipality first, then the others by how many samples fell in them, and remembers each sample', async () => {
    const lookup = createCircleMunicipalities(budget())
    const ctx = context()
    const wide = await lookup.of(ctx, { lat: 59.913, lon: 10.746 }, 10)
    expect(wide.municipalities.map((m) => [m.number, m.name])).toEqual([
      ['0301', 'OSLO'],
      ['3201', 'BÆRUM'],
    ])
    expect(wide.municipalities[0]!.samples).toBeGreaterThan(wide.municipalities[1]!.samples)
    expect(wide.calls).toBe(17)
    expect(ctx.calls.every((url) => url.includes('/punktsok?'))).toBe(true)
    const again = await lookup.of(context(), { lat: 59.913, lon: 10.746 }, 10)
    expect(again.calls).toBe(0)
    expect(again.municipalities).toEqual(wide.municipalities)
  })

  it('finds no municipality for a circle at sea', async () => {
    const found = await createCircleMunicipalities(budget()).of(context(), { lat: 58.5, lon: 3 }, 2)
    expect(found).toMatchObject({ municipalities: [], samples: 9, calls: 9 })
  })
})
