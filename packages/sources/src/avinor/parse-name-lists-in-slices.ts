import { addCodeName, addStatus, NAME_LISTS, type StatusText } from './parse-name-lists.js'
import { streamXmlDocument, type StreamedListSpec } from './stream-xml-document.js'

// Avinor's lists are tens of kilobytes, read in one or two slices; a larger answer (a proxy's
// page, a misbehaving upstream, up to the 4 MiB accepted from Avinor) is read a slice at a
// time, so that no answer on any path stalls the event loop.

/** Reads a `<root><item code name/>` list a slice at a time. */
async function codeNamesInSlices(body: string, list: StreamedListSpec): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  await streamXmlDocument(body, list, (element) => addCodeName(names, element))
  return names
}

/**
 * {@link parseAirportNames}, reading the body a slice at a time between turns of the event loop.
 *
 * @example
 * const airports = await parseAirportNamesInSlices(body) // IATA code → name
 */
export async function parseAirportNamesInSlices(body: string): Promise<Map<string, string>> {
  return codeNamesInSlices(body, NAME_LISTS.airports)
}

/**
 * {@link parseAirlineNames}, reading the body a slice at a time between turns of the event loop.
 *
 * @example
 * const airlines = await parseAirlineNamesInSlices(body) // IATA code → name
 */
export async function parseAirlineNamesInSlices(body: string): Promise<Map<string, string>> {
  return codeNamesInSlices(body, NAME_LISTS.airlines)
}

/**
 * {@link parseFlightStatuses}, reading the body a slice at a time between turns of the event loop.
 *
 * @example
 * const statuses = await parseFlightStatusesInSlices(body) // status code → texts
 */
export async function parseFlightStatusesInSlices(body: string): Promise<Map<string, StatusText>> {
  const statuses = new Map<string, StatusText>()
  await streamXmlDocument(body, NAME_LISTS.statuses, (element) => addStatus(statuses, element))
  return statuses
}
