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

  it('still refuses a large feed that is malformed in the middle, or has no flights at all', async () => {
    const body = biggerFeed(200_000)
    const middle = body.indexOf('<gate>', body.length / 2)
    await expect(parseFlightsInSlices(body.slice(0, middle) + '<gate>' + body.slice(middle + 6).replace('</gate>', ''))).rejects.toMatchObject({
      reason: expect.stringContaining('malformed XML'),
    })
    await expect(parseFlightsInSlices(`<html>${'x'.repeat(100_000)}</html>`)).rejects.toMatchObject({ name: 'InvalidFeedError' })
  })
})
