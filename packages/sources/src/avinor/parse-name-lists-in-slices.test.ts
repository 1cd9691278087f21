import { describe, expect, it } from 'vitest'
import { parseAirlineNames, parseAirportNames, parseFlightStatuses } from './parse-name-lists.js'
import {
  parseAirlineNamesInSlices,
  parseAirportNamesInSlices,
  parseFlightStatusesInSlices,
} from './parse-name-lists-in-slices.js'
import { readAvinorFixture } from './testing/fake-avinor.js'

/** A fixture list with its items repeated, under new codes, until it is about `chars` long. */
function biggerList(fixture: string, item: string, chars: number): string {
  const xml = readAvinorFixture(fixture)
  const start = xml.search(new RegExp(`<${item}[\\s>/]`))
  const end = xml.lastIndexOf('/>') + 2
  let items = xml.slice(start, end)
  for (let round = 0; items.length < chars; round++)
    items += xml.slice(start, end).replace(/code="([^"]*)"/g, `code="$1${round}"`)
  return xml.slice(0, start) + items + xml.slice(end)
}

describe('the name lists, read a slice at a time when large', () => {
  it.each([
    ['airport-names.xml', 'airportName', parseAirportNames, parseAirportNamesInSlices],
    ['airline-names.xml', 'airlineName', parseAirlineNames, parseAirlineNamesInSlices],
    ['flight-statuses.xml', 'flightStatus', parseFlightStatuses, parseFlightStatusesInSlices],
  ] as const)('%s: the same map as the whole-document parser, large or small', async (fixture, item, whole, sliced) => {
    const large = biggerList(fixture, item, 200_000)
    const expected = (whole as (body: string) => Map<string, unknown>)(large)
    expect(expected.size).toBeGreaterThan(500)
    expect(await (sliced as (body: string) => Promise<Map<string, unknown>>)(large)).toEqual(expected)
    const small = readAvinorFixture(fixture)
    expect(await (sliced as (body: string) => Promise<Map<string, unknown>>)(small)).toEqual(
      (whole as (body: string) => Map<string, unknown>)(small),
    )
  })

  it('refuses a large body that is not the list, as the whole-document parser does', async () => {
    const feed = biggerList('airline-names.xml', 'airlineName', 100_000)
    await expect(parseAirportNamesInSlices(feed)).rejects.toMatchObject({
      reason: 'answered XML with root element <airlineNames> instead of the airportNames XML',
    })
    await expect(parseAirportNamesInSlices(`<html>${' '.repeat(60_000)}</html>`)).rejects.toMatchObject({
      reason: 'answered an HTML page instead of the airportNames XML',
    })
    await expect(
      parseFlightStatusesInSlices(biggerList('flight-statuses.xml', 'flightStatus', 100_000).slice(0, 70_000)),
    ).rejects.toMatchObject({
      reason: expect.stringMatching(/^answered malformed XML .* instead of the flightStatuses XML$/),
    })
  })
})
