import { describe, expect, it } from 'vitest'
import { InvalidFeedError } from '../avinor/xml-document.js'
import { readEstimatedTimetable } from './siri-et-document.js'
import { DEMO_NETWORK, siriEtAnswer } from './testing/siri-et-fixture.js'

const at = Date.parse('2026-11-28T10:00:00Z')

describe('readEstimatedTimetable', () => {
  it('reads every journey with its calls, recorded ones first, and the delivery around them', async () => {
    const et = await readEstimatedTimetable(siriEtAnswer(DEMO_NETWORK, at, { moreData: true }))
    expect(et.journeys).toHaveLength(DEMO_NETWORK.length)
    expect(et.responseTimestamp).toBe('2026-11-28T11:00:00+01:00')
    expect(et.producerRef).toBe('BNR')
    expect(et.moreData).toBe(true)
    const l1 = et.journeys[0]!
    expect(l1).toMatchObject({
      vehicleRef: '2218',
      datedVehicleJourneyRef: '2218:2026-11-28',
      lineRef: 'NSB:Line:L1',
      operatorRef: 'VY',
      serviceFeatureRefs: ['passengerTrain'],
    })
    expect(l1.calls.map((c) => [c.stopPointRef, c.recorded])).toEqual([
      ['SPI', true],
      ['SKØ', false],
      ['NTH', false],
      ['OSL', false],
      ['BR', false],
      ['LLS', false],
    ])
    expect(l1.calls[3]).toMatchObject({
      aimedDeparture: '2026-11-28T11:10:00+01:00',
      expectedDeparture: '2026-11-28T11:11:00+01:00',
      departureStatus: 'delayed',
      departurePlatform: '4',
    })
    expect(et.journeys[1]).toMatchObject({ cancellation: true, originRef: 'OSL', destinationName: 'Skien' })
  })

  it('reads SIRI written with a namespace prefix, entities decoded, and skips an empty journey', async () => {
    const prefixed = siriEtAnswer(DEMO_NETWORK.slice(0, 2), at)
      .replace('xmlns="http://www.siri.org.uk/siri"', 'xmlns:siri="http://www.siri.org.uk/siri"')
      .replace(/<(\/?)([A-Z])/g, '<$1siri:$2')
      .replace('<siri:StopPointName>Oslo S<', '<siri:StopPointName>Oslo S &amp; co<')
      .replace(
        '</siri:EstimatedJourneyVersionFrame>',
        '<siri:EstimatedVehicleJourney/></siri:EstimatedJourneyVersionFrame>',
      )
    const et = await readEstimatedTimetable(prefixed)
    expect(et.journeys.map((j) => j.vehicleRef)).toEqual(['2218', '861'])
    expect(et.journeys[0]!.calls[3]!.stopPointName).toBe('Oslo S & co')
  })

  it('reads a network of megabytes in slices, giving the event loop many turns', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      ...DEMO_NETWORK[i % DEMO_NETWORK.length]!,
      train: String(10000 + i),
    }))
    const body = siriEtAnswer(many, at)
    expect(body.length).toBeGreaterThan(2_000_000)
    let turns = 0
    let longest = 0
    let last = performance.now()
    const ticker = setInterval(() => {
      const now = performance.now()
      longest = Math.max(longest, now - last)
      last = now
      turns++
    }, 0)
    try {
      const et = await readEstimatedTimetable(body)
      expect(et.journeys).toHaveLength(500)
    } finally {
      clearInterval(ticker)
    }
    // Read whole, the document would give the timer one turn at the end; in 16 kB slices, one a slice.
    expect(turns).toBeGreaterThan(50)
    // A slice is some milliseconds of work; the bound leaves room for a slow, shared machine.
    expect(longest).toBeLessThan(1000)
  })

  it('refuses what is not an ET answer, with a reason that completes "Upstream … "', async () => {
    const whole = siriEtAnswer(DEMO_NETWORK, at)
    for (const [body, reason] of [
      ['', 'answered an empty body'],
      ['Service Unavailable', 'answered plain text'],
      [whole.slice(0, whole.length - 300), 'breaks off'],
      [whole.replace('</EstimatedVehicleJourney>', '</EstimatedVehicleJourneyX>'), 'malformed XML'],
      [whole.replace('<VehicleRef>2218</VehicleRef>', '<VehicleRef>2218</Vehicle>'), 'malformed XML'],
      [whole.replace('</ServiceDelivery>', ''), 'malformed XML'],
    ] as const) {
      const error = await readEstimatedTimetable(body).catch((e: unknown) => e)
      expect(error, reason).toBeInstanceOf(InvalidFeedError)
      expect((error as InvalidFeedError).reason, reason).toContain(reason)
    }
  })
})
