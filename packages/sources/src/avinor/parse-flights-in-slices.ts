import { FEED, parseFlights, readFlight, type FeedDocument, type FeedFlight } from './parse-flights.js'
import { streamXmlDocument } from './stream-xml-document.js'
import { attributeOf, InvalidFeedError } from './xml-document.js'

/**
 * Up to this size a feed is parsed in one go: a few milliseconds, and the whole checked by the
 * same parser as the name lists. A busy airport over Avinor's widest window is megabytes.
 */
const LARGE_CHARS = 48 * 1024

/**
 * Parses an XmlFeed answer like {@link parseFlights}, to the same `FeedDocument`; a large one
 * with a streaming parser, a slice at a time between turns of the event loop, so that no feed
 * holds the loop for more than a few milliseconds (the 4 MiB Avinor may send takes about
 * 0.1–0.2 s in all, against a second for a tree of the whole) and none is built as one tree.
 *
 * @example
 * const feed = await parseFlightsInSlices(body) // same FeedDocument as parseFlights(body)
 */
export async function parseFlightsInSlices(body: string): Promise<FeedDocument> {
  if (body.length <= LARGE_CHARS) return parseFlights(body)
  const flights: FeedFlight[] = []
  let skipped = 0
  const { root, container } = await streamXmlDocument(body, { root: 'airport', feedName: FEED, container: 'flights', item: 'flight' }, (element) => {
    const flight = readFlight(element)
    if (flight) flights.push(flight)
    else skipped++
  })
  if (container === undefined) throw new InvalidFeedError(`answered an <airport> element without <flights> instead of ${FEED}`)
  return { airport: attributeOf(root, 'name'), lastUpdate: attributeOf(container, 'lastUpdate'), flights, skipped }
}
