import { readXmlList, type StreamedDocument } from './stream-xml-document.js'
import { attributeOf, InvalidFeedError, textOf } from './xml-document.js'

/** A codeshare (marketing) flight number on an operated flight, as the feed lists it with `codeshare=Y`. */
export interface FeedCodeshare {
  airlineCode: string
  /** The name the feed itself gives; the airline list may know a better one. */
  airlineName: string | null
  /** Designator, number and operational suffix together, e.g. `LH6201`. */
  flightId: string
}

/** One `<flight>` of the XmlFeed, typed but not yet enriched with names. */
export interface FeedFlight {
  uniqueId: string | null
  airline: string
  flightId: string
  /** `D` domestic, `S` Schengen, `I` international; null when absent or unknown. */
  domInt: 'D' | 'S' | 'I' | null
  /** ISO 8601 UTC, `YYYY-MM-DDTHH:MM:SSZ`. */
  scheduleTime: string
  arrDep: 'A' | 'D'
  /** The other end of the leg. */
  airport: string
  via: string[]
  checkIn: string | null
  gate: string | null
  belt: string | null
  status: { code: string; time: string | null } | null
  delayed: boolean
  codeshares: FeedCodeshare[]
}

/** A whole XmlFeed answer. */
export interface FeedDocument {
  /** The airport the feed is for (`<airport name="OSL">`). */
  airport: string | null
  /** When Avinor last updated the data (`<flights lastUpdate>`), as sent. */
  lastUpdate: string | null
  flights: FeedFlight[]
  /** Flights left out because they lacked a flight id, a direction or a readable schedule time. */
  skipped: number
}

/** How errors name the XmlFeed document. */
export const FEED = 'the XmlFeed XML'

/**
 * Normalises a feed time to ISO 8601 UTC without milliseconds; null when it cannot be read.
 *
 * @example
 * toUtcIso('2026-09-25T14:55:00+02:00') // '2026-09-25T12:55:00Z'
 */
export function toUtcIso(value: string | null): string | null {
  if (value === null) return null
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) return null
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z')
}

function splitList(value: string | null, separator: string): string[] {
  return value === null ? [] : value.split(separator).map((part) => part.trim())
}

/**
 * Reads the four codeshare elements. They are parallel lists; a semicolon separates items in
 * recorded snapshots, a comma in others (as in `via_airport`), so the separator is detected.
 */
function readCodeshares(flight: Record<string, unknown>): FeedCodeshare[] {
  const designators = textOf(flight['codeshareAirlineDesignators'])
  if (designators === null) return []
  const names = textOf(flight['codeshareAirlineNames'])
  const numbers = textOf(flight['codeshareFlightNumbers'])
  const suffixes = textOf(flight['codeshareOperationalSuffixs'])
  // Codes and numbers never contain either character, so they decide the separator.
  const separator = [designators, numbers, suffixes].some((value) => value?.includes(';')) ? ';' : ','
  const codes = splitList(designators, separator)
  const numberList = splitList(numbers, separator)
  const suffixList = splitList(suffixes, separator)
  // Names may themselves contain the separator ("Air Åland & Co, Ltd"); trust them only when they line up.
  let nameList = splitList(names, separator)
  if (nameList.length !== codes.length) nameList = codes.length === 1 && names !== null ? [names] : []
  const codeshares: FeedCodeshare[] = []
  codes.forEach((code, i) => {
    const number = numberList[i] ?? ''
    if (code === '' || number === '') return
    const suffix = suffixList[i] ?? ''
    codeshares.push({
      airlineCode: code,
      airlineName: nameList[i] || null,
      flightId: (number.startsWith(code) ? number : code + number) + suffix,
    })
  })
  return codeshares
}

/**
 * One `<flight>` element, as the XML reader hands it out, typed; `undefined` when it lacks a
 * flight id, a direction or a readable schedule time.
 *
 * @example
 * readFlight({ flight_id: 'DY1791', arr_dep: 'A', schedule_time: '2026-09-25T12:55:00Z' })?.flightId // 'DY1791'
 */
export function readFlight(flight: Record<string, unknown>): FeedFlight | undefined {
  const flightId = textOf(flight['flight_id'])
  const arrDep = textOf(flight['arr_dep'])
  const scheduleTime = toUtcIso(textOf(flight['schedule_time']))
  if (flightId === null || (arrDep !== 'A' && arrDep !== 'D') || scheduleTime === null) return undefined
  const domInt = textOf(flight['dom_int'])
  const statusElement = flight['status']
  const statusCode = attributeOf(statusElement, 'code')
  return {
    uniqueId: attributeOf(flight, 'uniqueID'),
    // The flight id starts with the airline designator; fall back to it if <airline> is missing.
    airline: textOf(flight['airline']) ?? flightId.replace(/^([A-Z0-9]{2}[A-Z]?)\d.*$/, '$1'),
    flightId,
    domInt: domInt === 'D' || domInt === 'S' || domInt === 'I' ? domInt : null,
    scheduleTime,
    arrDep,
    airport: textOf(flight['airport']) ?? '',
    via: splitList(textOf(flight['via_airport']), ',').filter((code) => code !== ''),
    checkIn: textOf(flight['check_in']),
    gate: textOf(flight['gate']),
    // The asrv feed sends <belt>; older recordings and one client's tests use <belt_number>.
    belt: textOf(flight['belt']) ?? textOf(flight['belt_number']),
    status: statusCode === null ? null : { code: statusCode, time: toUtcIso(attributeOf(statusElement, 'time')) },
    delayed: textOf(flight['delayed']) === 'Y',
    codeshares: readCodeshares(flight),
  }
}

/** What the XML reader looks for in an XmlFeed answer: `<airport><flights><flight>`. */
export const FEED_LIST = { root: 'airport', feedName: FEED, container: 'flights', item: 'flight' } as const

/**
 * Collects the flights of an XmlFeed answer as the XML reader hands them out, one at a time,
 * and once the document is read, the whole `FeedDocument`.
 *
 * @example
 * const collector = collectFlights()
 * collector.finish(readXmlList(body, FEED_LIST, collector.add))
 */
export function collectFlights(): {
  add(element: Record<string, unknown>): void
  finish(document: StreamedDocument): FeedDocument
} {
  const flights: FeedFlight[] = []
  let skipped = 0
  return {
    add(element) {
      const flight = readFlight(element)
      if (flight) flights.push(flight)
      else skipped++
    },
    finish({ root, container }) {
      if (container === undefined)
        throw new InvalidFeedError(`answered an <airport> element without <flights> instead of ${FEED}`)
      return { airport: attributeOf(root, 'name'), lastUpdate: attributeOf(container, 'lastUpdate'), flights, skipped }
    },
  }
}

/**
 * Parses an XmlFeed answer (already decoded from ISO-8859-1) in one go. Throws
 * {@link InvalidFeedError} when the body is empty, HTML, malformed, or not an `<airport>` with
 * a `<flights>` child. The feed client reads with {@link parseFlightsInSlices}, which gives
 * the same `FeedDocument` without holding the event loop on a large feed.
 *
 * @example
 * const feed = parseFlights('<airport name="OSL"><flights lastUpdate="2026-09-25T14:22:33Z">' +
 *   '<flight uniqueID="1"><airline>DY</airline><flight_id>DY1791</flight_id><dom_int>S</dom_int>' +
 *   '<schedule_time>2026-09-25T12:55:00Z</schedule_time><arr_dep>A</arr_dep><airport>ALC</airport>' +
 *   '</flight></flights></airport>')
 * feed.flights[0]?.flightId // 'DY1791'
 */
export function parseFlights(body: string): FeedDocument {
  const collector = collectFlights()
  return collector.finish(readXmlList(body, FEED_LIST, collector.add))
}
