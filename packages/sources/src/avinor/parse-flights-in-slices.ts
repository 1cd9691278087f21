import { collectFlights, FEED_LIST, type FeedDocument } from './parse-flights.js'
import { streamXmlDocument } from './stream-xml-document.js'

/**
 * Parses an XmlFeed answer like {@link parseFlights}, to the same `FeedDocument`, a slice at a
 * time between turns of the event loop, so that no feed holds the loop for more than a few
 * milliseconds (the 4 MiB Avinor may send takes a fraction of a second in all) and none is
 * built as one tree. A small feed is read in one slice, without waiting for a turn.
 *
 * @example
 * const feed = await parseFlightsInSlices(body) // same FeedDocument as parseFlights(body)
 */
export async function parseFlightsInSlices(body: string): Promise<FeedDocument> {
  const collector = collectFlights()
  return collector.finish(await streamXmlDocument(body, FEED_LIST, collector.add))
}
