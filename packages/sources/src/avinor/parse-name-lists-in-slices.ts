import { addCodeName, addStatus, parseAirlineNames, parseAirportNames, parseFlightStatuses, type StatusText } from './parse-name-lists.js'
import { streamXmlDocument } from './stream-xml-document.js'

/**
 * Up to this size a list is parsed in one go. Avinor's lists are tens of kilobytes; a larger
 * answer (a proxy's page, a misbehaving upstream, up to the 4 MiB accepted from Avinor) is
 * read with the streaming parser, so that no answer on any path stalls the event loop.
 */
const LARGE_CHARS = 48 * 1024

/** Reads a large `<root><item code name/>` list a slice at a time. */
async function codeNamesInSlices(body: string, root: string, item: string): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  await streamXmlDocument(body, { root, feedName: `the ${root} XML`, item }, (element) => addCodeName(names, element))
  return names
}

/**
 * {@link parseAirportNames}, reading a large body a slice at a time between turns of the event loop.
 *
 * @example
 * const airports = await parseAirportNamesInSlices(body) // IATA code → name
 */
export async function parseAirportNamesInSlices(body: string): Promise<Map<string, string>> {
  return body.length <= LARGE_CHARS ? parseAirportNames(body) : codeNamesInSlices(body, 'airportNames', 'airportName')
}

/**
 * {@link parseAirlineNames}, reading a large body a slice at a time between turns of the event loop.
 *
 * @example
 * const airlines = await parseAirlineNamesInSlices(body) // IATA code → name
 */
export async function parseAirlineNamesInSlices(body: string): Promise<Map<string, string>> {
  return body.length <= LARGE_CHARS ? parseAirlineNames(body) : codeNamesInSlices(body, 'airlineNames', 'airlineName')
}

/**
 * {@link parseFlightStatuses}, reading a large body a slice at a time between turns of the event loop.
 *
 * @example
 * const statuses = await parseFlightStatusesInSlices(body) // status code → texts
 */
export async function parseFlightStatusesInSlices(body: string): Promise<Map<string, StatusText>> {
  if (body.length <= LARGE_CHARS) return parseFlightStatuses(body)
  const statuses = new Map<string, StatusText>()
  await streamXmlDocument(body, { root: 'flightStatuses', feedName: 'the flightStatuses XML', item: 'flightStatus' }, (element) => addStatus(statuses, element))
  return statuses
}
