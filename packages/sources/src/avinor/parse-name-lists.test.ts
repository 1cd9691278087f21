import { describe, expect, it } from 'vitest'
import { readAvinorFixture } from './testing/fake-avinor.js'
import { parseAirlineNames, parseAirportNames, parseFlightStatuses } from './parse-name-lists.js'
import { InvalidFeedError } from './xml-document.js'

describe('parseAirportNames', () => {
  it('reads the list under its default namespace, Norwegian letters intact', () => {
    const airports = parseAirportNames(readAvinorFixture('airport-names.xml'))
    expect(airports.size).toBe(40)
    expect(airports.get('OSL')).toBe('Oslo')
    expect(airports.get('TOS')).toBe('Tromsø')
    expect(airports.get('BOO')).toBe('Bodø')
    expect(airports.get('AES')).toBe('Ålesund')
    expect(airports.get('HOV')).toBe('Ørsta-Volda')
  })

  it('reads a one-item list (airportNames?airport=OSL) and a prefixed namespace', () => {
    const one =
      '<?xml version="1.0" encoding="ISO-8859-1"?><airportNames xmlns="http://www.avinor.no/xmlfeed/airportnames/v1.0"><airportName code="OSL" name="Oslo"/></airportNames>'
    expect([...parseAirportNames(one)]).toEqual([['OSL', 'Oslo']])
    const prefixed =
      '<a:airportNames xmlns:a="http://www.avinor.no/xmlfeed/airportnames/v1.0"><a:airportName code="BGO" name="Bergen"/><a:airportName code="SVG" name="Stavanger"/></a:airportNames>'
    expect([...parseAirportNames(prefixed)]).toEqual([
      ['BGO', 'Bergen'],
      ['SVG', 'Stavanger'],
    ])
    expect(parseAirportNames('<airportNames xmlns="x"/>').size).toBe(0)
  })

  it('refuses another list, HTML and malformed XML', () => {
    expect(() => parseAirportNames(readAvinorFixture('airline-names.xml'))).toThrow(
      new InvalidFeedError('answered XML with root element <airlineNames> instead of the airportNames XML'),
    )
    expect(() => parseAirportNames('<html><body>Bad gateway</body></html>')).toThrow(
      'answered an HTML page instead of the airportNames XML',
    )
    expect(() => parseAirportNames('<airportNames><airportName code="OSL"')).toThrow(/^answered malformed XML/)
  })
})

describe('parseAirlineNames', () => {
  it('reads code and name, decoding entities', () => {
    const airlines = parseAirlineNames(readAvinorFixture('airline-names.xml'))
    expect(airlines.get('WF')).toBe('Widerøe')
    expect(airlines.get('DY')).toBe('Norwegian')
    expect(airlines.get('HX')).toBe('Air Åland & Co')
  })
})

describe('parseFlightStatuses', () => {
  it('reads English and Norwegian status texts', () => {
    const statuses = parseFlightStatuses(readAvinorFixture('flight-statuses.xml'))
    expect([...statuses.keys()]).toEqual(['N', 'E', 'D', 'A', 'C'])
    expect(statuses.get('A')).toEqual({ en: 'Arrived', no: 'Landet' })
    expect(statuses.get('C')).toEqual({ en: 'Cancelled', no: 'Innstilt' })
  })

  it('refuses an empty body', () => {
    expect(() => parseFlightStatuses('')).toThrow('answered an empty body instead of the flightStatuses XML')
  })
})
