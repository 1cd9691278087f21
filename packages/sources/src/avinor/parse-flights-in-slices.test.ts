import { describe, expect, it } from 'vitest'
import { parseFlights } from './parse-flights.js'
import { parseFlightsInSlices } from './parse-flights-in-slices.js'
import { readAvinorFixture } from './testing/fake-avinor.js'

/** The OSL fixture with its flights repeated until the document is about `chars` long. */
function biggerFeed(chars: number): string {
  const xml = readAvinorFixture('xmlfeed-osl.xml')
  const start = xml.search(/<flight[\s>]/)
  const end = xml.lastIndexOf('</flight>') + '</flight>'.length
  let flights = ''
  while (flights.length < chars) flights += xml.slice(start, end)
  return xml.slice(0, start) + flights + xml.slice(end)
}

describe('parseFlightsInSlices', () => {
  it('reads a large feed exactly as parseFlights reads it whole', async () => {
    const body = biggerFeed(400_000)
    const whole = parseFlights(body)
    expect(whole.flights.length).toBeGreaterThan(900)
    expect(await parseFlightsInSlices(body)).toEqual(whole)
  })

  it('reads a small feed in one go', async () => {
    const body = readAvinorFixture('xmlfeed-osl.xml')
    expect(await parseFlightsInSlices(body)).toEqual(parseFlights(body))
  })

  // Odd but well-formed flights, each among enough ordinary ones to take the streaming path.
  it.each([
    [
      'entities and character references',
      '<flight uniqueID="a&amp;b"><airline>WF</airline><flight_id>WF1</flight_id><schedule_time>2026-09-25T14:00:00Z</schedule_time><arr_dep>A</arr_dep><airport>TOS</airport><codeshareAirlineDesignators>HX</codeshareAirlineDesignators><codeshareAirlineNames>Air &#197;land &amp;amp; Co &lt;x&gt;</codeshareAirlineNames><codeshareFlightNumbers>12</codeshareFlightNumbers></flight>',
    ],
    [
      'namespace prefixes',
      '<av:flight uniqueID="9"><av:flight_id>SK1</av:flight_id><av:arr_dep>D</av:arr_dep><av:schedule_time>2026-09-25T14:00:00Z</av:schedule_time><av:status code="D" time="2026-09-25T14:05:00Z"/></av:flight>',
    ],
    [
      'a repeated child and an empty one',
      '<flight uniqueID="7"><flight_id>DY7</flight_id><flight_id>DY8</flight_id><arr_dep>A</arr_dep><schedule_time>2026-09-25T14:00:00Z</schedule_time><gate/><belt>  </belt><check_in><![CDATA[12-14]]></check_in></flight>',
    ],
    [
      'a status with text and a child with children',
      '<flight uniqueID="8"><flight_id>DY9</flight_id><arr_dep>A</arr_dep><schedule_time>2026-09-25T16:00:00+02:00</schedule_time><status code="A">landed</status><gate><x>1</x></gate></flight>',
    ],
    ['a flight too broken to read', '<flight uniqueID="6"><flight_id>DY6</flight_id><arr_dep>X</arr_dep></flight>'],
    [
      'an entity no DTD declares',
      '<flight uniqueID="5"><flight_id>DY5</flight_id><arr_dep>A</arr_dep><schedule_time>2026-09-25T14:00:00Z</schedule_time><gate>&nope;</gate></flight>',
    ],
  ])('reads %s in a large feed exactly as parseFlights does', async (_name, odd) => {
    const body = biggerFeed(100_000)
    const start = body.search(/<flight[\s>]/)
    const withOdd = body.slice(0, start) + odd + body.slice(start)
    expect(await parseFlightsInSlices(withOdd)).toEqual(parseFlights(withOdd))
  })

  it('reads the feed and flights attributes, and a large feed whose flights are all unreadable', async () => {
    const flights = '<flight uniqueID="1"><flight_id>X</flight_id></flight>'.repeat(2000)
    const body = `<?xml version="1.0"?><airport name="OSL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><flights lastUpdate="2026-09-25T14:22:33Z">${flights}</flights></airport>`
    expect(await parseFlightsInSlices(body)).toEqual({
      airport: 'OSL',
      lastUpdate: '2026-09-25T14:22:33Z',
      flights: [],
      skipped: 2000,
    })
  })

  it.each([
    [
      'another root',
      `<error>${'<message>x</message>'.repeat(5000)}</error>`,
      'answered XML with root element <error> instead of the XmlFeed XML',
    ],
    [
      'an airport without flights',
      `<airport name="OSL">${'<note>x</note>'.repeat(5000)}</airport>`,
      'answered an <airport> element without <flights> instead of the XmlFeed XML',
    ],
    [
      'text after the root',
      `${biggerFeed(60_000)}trailing`,
      /^answered malformed XML \(.+ at line \d+\) instead of the XmlFeed XML$/,
    ],
    [
      'a second root',
      `${biggerFeed(60_000)}<airport/>`,
      /^answered (malformed XML|an <airport> element without <flights>)/,
    ],
    ['a truncated feed', biggerFeed(100_000).slice(0, 80_000), /^answered malformed XML/],
  ])('refuses a large feed with %s, as parseFlights does', async (_name, body, reason) => {
    // The two parsers may name a second root differently; both refuse it.
    const refusal = {
      name: 'InvalidFeedError',
      reason: typeof reason === 'string' ? reason : expect.stringMatching(reason),
    }
    expect(() => parseFlights(body)).toThrow(expect.objectContaining(refusal))
    await expect(parseFlightsInSlices(body)).rejects.toMatchObject(refusal)
  })

  it('still refuses a large feed that is malformed in the middle, or has no flights at all', async () => {
    const body = biggerFeed(200_000)
    const middle = body.indexOf('<gate>', body.length / 2)
    await expect(
      parseFlightsInSlices(`${body.slice(0, middle)}<gate>${body.slice(middle + 6).replace('</gate>', '')}`),
    ).rejects.toMatchObject({
      reason: expect.stringContaining('malformed XML'),
    })
    await expect(parseFlightsInSlices(`<html>${'x'.repeat(100_000)}</html>`)).rejects.toMatchObject({
      name: 'InvalidFeedError',
    })
  })
})
