import { parseFlights, type FeedDocument } from './parse-flights.js'
import { InvalidFeedError } from './xml-document.js'

/**
 * About how much of the feed is parsed between two turns of the event loop: a few
 * milliseconds of work. Smaller slices cost more in total, since each is parsed as a document.
 */
const SLICE_CHARS = 48 * 1024

const CLOSE = '</flight>'
/** `<flight ...>` or `<flight>`, never `<flights`. */
const OPEN = /<flight[\s>/]/

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Parses an XmlFeed answer like {@link parseFlights}, but a large one in slices of whole
 * `<flight>` elements with a turn of the event loop between them. A busy airport over Avinor's
 * widest window is megabytes of XML, which parsed in one go would stall every other request
 * of the process for a good part of a second.
 *
 * Each slice is parsed as a document of its own (the feed's opening and closing around some
 * flights), so each is checked for well-formedness as the whole would be.
 *
 * @example
 * const feed = await parseFlightsInSlices(body) // same FeedDocument as parseFlights(body)
 */
export async function parseFlightsInSlices(body: string): Promise<FeedDocument> {
  if (body.length <= SLICE_CHARS) return parseFlights(body)
  const first = body.search(OPEN)
  const last = body.lastIndexOf(CLOSE)
  if (first === -1 || last < first) {
    throw new InvalidFeedError(`answered ${body.length} characters without a complete <flight> element instead of the XmlFeed XML`)
  }
  const end = last + CLOSE.length
  const head = body.slice(0, first)
  const tail = body.slice(end)
  const frame = parseFlights(head + tail)
  const flights = frame.flights
  let skipped = frame.skipped
  for (let start = first; start < end; ) {
    const close = body.indexOf(CLOSE, Math.min(start + SLICE_CHARS, last))
    const stop = close + CLOSE.length
    await nextTurn()
    const part = parseFlights(head + body.slice(start, stop) + tail)
    for (const flight of part.flights) flights.push(flight)
    skipped += part.skipped
    start = stop
  }
  return { airport: frame.airport, lastUpdate: frame.lastUpdate, flights, skipped }
}
