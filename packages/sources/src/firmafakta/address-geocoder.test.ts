import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeReply, testUpstreamClient, type FakeUpstream } from '@allmenning/core/testing'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import { recordedAddresses, startFakeKartverketAdresser } from '../geonorge/testing/fake-kartverket.js'
import { createRequestBudget } from '../shared/request-budget.js'
import { createAddressGeocoder } from './address-geocoder.js'
import { geocodableAddress } from './geocodable-address.js'
import { areaAdresser } from './testing/area-fixtures.js'

const address = (street: string, postnummer: string) =>
  geocodableAddress({
    adresse: [street],
    postnummer,
    poststed: 'OSLO',
    kommune: 'OSLO',
    kommunenummer: '0301',
    land: 'Norge',
    landkode: 'NO',
  })!

describe('createAddressGeocoder', () => {
  let kartverket: FakeUpstream
  beforeAll(async () => {
    kartverket = await startFakeKartverketAdresser({ addresses: [...recordedAddresses, ...areaAdresser()] })
  })
  afterAll(() => kartverket.close())
  const client = () => testUpstreamClient(kartverketAdresser, kartverket.baseUrl)
  const budget = () => createRequestBudget({ requests: 1000, perMs: 1000, maxWaitMs: 0 })
  const limits = { maxCalls: 50, concurrency: 4 }

  it('places an address at Kartverket’s point, in WGS84, asking with the street and the postal code', async () => {
    const before = kartverket.received.length
    const run = await createAddressGeocoder({ budget: budget() }).placeAll(
      client(),
      [address('Karl Johans gate 22', '0159')],
      limits,
    )
    expect(run.results.get('karl johans gate 22|0159')).toEqual({
      status: 'placed',
      place: { lat: 59.91356901274554, lon: 10.740418355472109, address: 'Karl Johans gate 22, 0159 OSLO' },
      cached: false,
    })
    const asked = kartverket.received[before]!
    expect(asked.path).toBe('/sok')
    expect(Object.fromEntries(asked.query)).toMatchObject({
      sok: 'Karl Johans gate 22',
      postnummer: '0159',
      utkoordsys: '4326',
      treffPerSide: '5',
      side: '0',
    })
  })

  it('takes another letter of the same number, but never a neighbouring number or another street', async () => {
    const geocoder = createAddressGeocoder({ budget: budget() })
    const run = await geocoder.placeAll(
      client(),
      [address('Tollbugata 10', '0152'), address('Tollbugata 12', '0152'), address('Tollbugata 10', '0150')],
      limits,
    )
    expect(run.results.get('tollbugata 10|0152')).toMatchObject({
      status: 'placed',
      place: { address: 'Tollbugata 10A, 0152 OSLO' },
    })
    expect(run.results.get('tollbugata 12|0152')).toEqual({ status: 'not_found', cached: false })
    expect(run.results.get('tollbugata 10|0150')).toEqual({ status: 'not_found', cached: false })
  })

  it('remembers a point for 30 days and a miss for one, then asks again', async () => {
    let now = Date.UTC(2026, 0, 1)
    const geocoder = createAddressGeocoder({ budget: budget(), now: () => now })
    const wanted = [
      address('Stortorvet 7', '0155'),
      address('Finnesikkeveien 99', '0150'),
      address('Stortorvet 7', '0155'),
    ]
    const first = await geocoder.placeAll(client(), wanted, limits)
    expect(first.calls).toBe(2)
    now += 23 * 3_600_000
    const second = await geocoder.placeAll(client(), wanted, limits)
    expect(second.calls).toBe(0)
    expect([...second.results.values()].map((r) => [r.status, 'cached' in r && r.cached])).toEqual([
      ['placed', true],
      ['not_found', true],
    ])
    now += 2 * 3_600_000
    expect((await geocoder.placeAll(client(), wanted, limits)).calls).toBe(1)
    now += 30 * 86_400_000
    expect((await geocoder.placeAll(client(), wanted, limits)).calls).toBe(2)
  })

  it('makes at most maxCalls calls, at most `concurrency` at a time, and says which it left', async () => {
    const geocoder = createAddressGeocoder({ budget: budget() })
    const streets = [
      'Kongens gate 30|0153',
      'Stortorvet 7|0155',
      'Rådhusgata 5|0151',
      'Robert Levins gate 3|0150',
      'Brynsveien 5|0667',
    ]
    const wanted = streets.map((s) => address(...(s.split('|') as [string, string])))
    // A Kartverket of its own that answers slowly, and with nothing, to count the calls in flight.
    const slow = await startFakeKartverketAdresser()
    let inFlight = 0
    let most = 0
    slow.route('/sok', async () => {
      inFlight++
      most = Math.max(most, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 20))
      inFlight--
      return fakeReply.json({ metadata: { totaltAntallTreff: 0 }, adresser: [] })
    })
    try {
      const run = await geocoder.placeAll(testUpstreamClient(kartverketAdresser, slow.baseUrl), wanted, {
        maxCalls: 4,
        concurrency: 2,
      })
      expect(run.calls).toBe(4)
      expect(most).toBe(2)
      expect(run.results.get(wanted[4]!.key)).toEqual({ status: 'not_looked_up', because: 'cap' })
    } finally {
      await slow.close()
    }
  })

  it('stops asking after the first failure, and keeps nothing of it', async () => {
    const geocoder = createAddressGeocoder({ budget: budget() })
    kartverket.failWith(fakeReply.status(503), { times: 1 })
    const wanted = [address('Kongens gate 30', '0153'), address('Stortorvet 7', '0155')]
    const run = await geocoder.placeAll(client(), wanted, { maxCalls: 50, concurrency: 1 })
    expect(run.calls).toBe(1)
    expect([...run.results.values()].map((r) => r.status)).toEqual(['failed', 'failed'])
    expect(String(run.firstError)).toContain('kartverket_adresser')
    expect((await geocoder.placeAll(client(), wanted, limits)).calls).toBe(2)
  })
})
