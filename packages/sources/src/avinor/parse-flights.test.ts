import { describe, expect, it } from 'vitest'
import { readAvinorFixture } from './testing/fake-avinor.js'
import { parseFlights, toUtcIso } from './parse-flights.js'
import { InvalidFeedError } from './xml-document.js'

const feed = (flights: string, flightsAttributes = ' lastUpdate="2026-09-25T14:22:33Z"') =>
  `<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>\n<airport name="OSL"><flights${flightsAttributes}>${flights}</flights></airport>`

function reasonOf(body: string): string {
  try {
    parseFlights(body)
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidFeedError)
    return (error as InvalidFeedError).reason
  }
  throw new Error('parseFlights accepted the body')
}

describe('parseFlights', () => {
  it('reads the recorded OSL feed into typed flights', () => {
    const parsed = parseFlights(readAvinorFixture('xmlfeed-osl.xml'))
    expect(parsed.airport).toBe('OSL')
    expect(parsed.lastUpdate).toBe('2026-09-25T14:22:33.830916Z')
    expect(parsed.skipped).toBe(0)
    expect(parsed.flights).toHaveLength(14)
    expect(parsed.flights.find((f) => f.flightId === 'DY1791')).toEqual({
      uniqueId: '1616374025',
      airline: 'DY',
      flightId: 'DY1791',
      domInt: 'S',
      scheduleTime: '2026-09-25T13:05:00Z',
      arrDep: 'A',
      airport: 'ALC',
      via: [],
      checkIn: null,
      gate: null,
      belt: '2',
      status: { code: 'A', time: '2026-09-25T14:01:00Z' },
      delayed: true,
      codeshares: [],
    })
  })

  it('reads via airports, <belt_number>, departures fields and statuses without time', () => {
    const flights = parseFlights(readAvinorFixture('xmlfeed-osl.xml')).flights
    const byId = (id: string) => flights.find((f) => f.flightId === id)
    expect(byId('WF170')).toMatchObject({
      via: ['SOG', 'HOV'],
      belt: '5',
      status: { code: 'E', time: '2026-09-25T14:40:00Z' },
    })
    expect(byId('SK4416')).toMatchObject({ gate: 'D7', checkIn: '7 8 9', belt: null, delayed: false })
    expect(byId('DY602')?.status).toEqual({ code: 'C', time: null })
    expect(byId('DY390')?.status).toEqual({ code: 'N', time: null })
    expect(byId('SK1301')?.status).toBeNull()
    expect(byId('SK1301')?.uniqueId).toBe('1616380004')
    expect(flights.find((f) => f.uniqueId === '5')?.flightId).toBe('DY602')
  })

  it('passes on a lastUpdate with nine decimals and check-in ranges as Avinor writes them', () => {
    const tos = parseFlights(readAvinorFixture('xmlfeed-tos.xml'))
    expect(tos.lastUpdate).toBe('2026-09-25T14:22:33.830916400Z')
    expect(tos.flights.find((f) => f.flightId === 'SK4417')?.checkIn).toBe('2-5')
  })

  it('keeps values such as "01" and "04" as strings', () => {
    const boo = parseFlights(readAvinorFixture('xmlfeed-boo.xml'))
    expect(boo.flights).toEqual([
      expect.objectContaining({ flightId: 'WF0123', gate: '01', checkIn: '01', via: ['MQN'] }),
    ])
    const lhr = parseFlights(readAvinorFixture('xmlfeed-osl.xml')).flights.find((f) => f.flightId === 'BA763')
    expect(lhr?.belt).toBe('04')
    expect(
      parseFlights(
        feed(
          '<flight uniqueID="9"><flight_id>0123</flight_id><arr_dep>D</arr_dep><schedule_time>2026-09-25T14:00:00Z</schedule_time><airline>XX</airline></flight>',
        ),
      ).flights[0]?.flightId,
    ).toBe('0123')
  })

  it('reads codeshares separated by semicolons, with suffixes, and Norwegian names', () => {
    const flights = parseFlights(readAvinorFixture('xmlfeed-osl.xml')).flights
    expect(flights.find((f) => f.flightId === 'SK1470')?.codeshares).toEqual([
      { airlineCode: 'LH', airlineName: 'Lufthansa', flightId: 'LH6201' },
      { airlineCode: 'A3', airlineName: 'Aegean Airlines', flightId: 'A31550' },
    ])
    expect(flights.find((f) => f.flightId === 'SK4416')?.codeshares).toEqual([
      { airlineCode: 'WF', airlineName: 'Widerøe', flightId: 'WF7416' },
    ])
  })

  it('reads codeshares separated by commas and numbers that already carry the designator', () => {
    const parsed = parseFlights(
      feed(
        '<flight uniqueID="1"><airline>SK</airline><flight_id>SK1</flight_id><schedule_time>2026-09-25T14:00:00Z</schedule_time>' +
          '<arr_dep>D</arr_dep><airport>CPH</airport><codeshareAirlineDesignators>LH, UA</codeshareAirlineDesignators>' +
          '<codeshareAirlineNames>Lufthansa, United Airlines</codeshareAirlineNames>' +
          '<codeshareFlightNumbers>LH6001, 9001</codeshareFlightNumbers><codeshareOperationalSuffixs>, A</codeshareOperationalSuffixs></flight>',
      ),
    )
    expect(parsed.flights[0]?.codeshares).toEqual([
      { airlineCode: 'LH', airlineName: 'Lufthansa', flightId: 'LH6001' },
      { airlineCode: 'UA', airlineName: 'United Airlines', flightId: 'UA9001A' },
    ])
  })

  it('gives a single flight as a one-item list', () => {
    const parsed = parseFlights(
      feed(
        '<flight uniqueID="1"><airline>DY</airline><flight_id>DY1</flight_id><schedule_time>2026-09-25T14:00:00Z</schedule_time><arr_dep>A</arr_dep><airport>BGO</airport></flight>',
      ),
    )
    expect(parsed.flights).toHaveLength(1)
    expect(parsed.flights[0]?.airport).toBe('BGO')
  })

  it('reads an empty flight list in both spellings', () => {
    expect(parseFlights(feed('')).flights).toEqual([])
    expect(parseFlights('<airport name="ALC"><flights lastUpdate="2026-09-25T14:22:33Z"/></airport>')).toEqual({
      airport: 'ALC',
      lastUpdate: '2026-09-25T14:22:33Z',
      flights: [],
      skipped: 0,
    })
    expect(parseFlights('<airport name="ALC"><flights/></airport>').flights).toEqual([])
  })

  it('decodes character references and entities', () => {
    const parsed = parseFlights(
      feed(
        '<flight uniqueID="1"><airline>WF</airline><flight_id>WF1</flight_id><schedule_time>2026-09-25T14:00:00Z</schedule_time><arr_dep>A</arr_dep><airport>TOS</airport><codeshareAirlineDesignators>HX</codeshareAirlineDesignators><codeshareAirlineNames>Air &#197;land &amp; Co</codeshareAirlineNames><codeshareFlightNumbers>12</codeshareFlightNumbers></flight>',
      ),
    )
    expect(parsed.flights[0]?.codeshares[0]?.airlineName).toBe('Air Åland & Co')
  })

  it('skips and counts flights without a flight id, direction or readable time', () => {
    const parsed = parseFlights(
      feed(
        '<flight uniqueID="1"><flight_id>DY1</flight_id><arr_dep>X</arr_dep><schedule_time>2026-09-25T14:00:00Z</schedule_time></flight>' +
          '<flight uniqueID="2"><arr_dep>A</arr_dep><schedule_time>2026-09-25T14:00:00Z</schedule_time></flight>' +
          '<flight uniqueID="3"><flight_id>DY3</flight_id><arr_dep>A</arr_dep><schedule_time>soon</schedule_time></flight>' +
          '<flight uniqueID="4"><flight_id>DY4</flight_id><arr_dep>A</arr_dep><schedule_time>2026-09-25T14:00:00Z</schedule_time></flight>',
      ),
    )
    expect(parsed.skipped).toBe(3)
    expect(parsed.flights.map((f) => [f.flightId, f.airline])).toEqual([['DY4', 'DY']])
  })

  describe('refuses what is not the XmlFeed', () => {
    it.each([
      ['an empty body', '', 'answered an empty body instead of the XmlFeed XML'],
      ['only whitespace', '  \n ', 'answered an empty body instead of the XmlFeed XML'],
      ['a bare HTML page', '<html>Unauthorized</html>', 'answered an HTML page instead of the XmlFeed XML'],
      [
        'an HTML document',
        '<!DOCTYPE html>\n<html><body><p>Service Unavailable<br></body></html>',
        'answered an HTML page instead of the XmlFeed XML',
      ],
      ['plain text', 'Service Unavailable', 'answered plain text instead of the XmlFeed XML'],
      [
        'another XML document',
        '<?xml version="1.0"?><error><message>x</message></error>',
        'answered XML with root element <error> instead of the XmlFeed XML',
      ],
      [
        'an airport without flights',
        '<airport name="OSL"></airport>',
        'answered an <airport> element without <flights> instead of the XmlFeed XML',
      ],
    ])('%s', (_, body, reason) => {
      expect(reasonOf(body)).toBe(reason)
    })

    it('truncated XML, which a lenient parser would read as a short feed', () => {
      const full = readAvinorFixture('xmlfeed-osl.xml')
      expect(reasonOf(full.slice(0, full.length / 2))).toMatch(
        /^answered malformed XML \(.+ at line \d+\) instead of the XmlFeed XML$/,
      )
    })
  })
})

describe('toUtcIso', () => {
  it('normalises feed times to ISO 8601 UTC without milliseconds', () => {
    expect(toUtcIso('2026-09-25T12:55:00Z')).toBe('2026-09-25T12:55:00Z')
    expect(toUtcIso('2026-09-25T14:55:00+02:00')).toBe('2026-09-25T12:55:00Z')
    expect(toUtcIso('2026-09-25T14:22:33.830Z')).toBe('2026-09-25T14:22:33.830Z')
    expect(toUtcIso('not a time')).toBeNull()
    expect(toUtcIso(null)).toBeNull()
  })
})
