import { readXmlList, type StreamedListSpec } from './stream-xml-document.js'
import { attributeOf, type XmlElement } from './xml-document.js'

/** The English and Norwegian text of one flight status code. */
export interface StatusText {
  en: string | null
  no: string | null
}

/**
 * Adds one `<item code=".." name=".."/>` to a map from code to name; an item without both is left out.
 *
 * @example
 * addCodeName(names, { '@_code': 'osl', '@_name': 'Oslo' }) // names.get('OSL') === 'Oslo'
 */
export function addCodeName(names: Map<string, string>, element: XmlElement): void {
  const code = attributeOf(element, 'code')
  const name = attributeOf(element, 'name')
  if (code !== null && name !== null) names.set(code.toUpperCase(), name)
}

/**
 * Adds one `<flightStatus code=".." statusTextEn=".." statusTextNo=".."/>` to a map from code to texts.
 *
 * @example
 * addStatus(statuses, { '@_code': 'A', '@_statusTextEn': 'Arrived' }) // statuses.get('A') = { en: 'Arrived', no: null }
 */
export function addStatus(statuses: Map<string, StatusText>, element: XmlElement): void {
  const code = attributeOf(element, 'code')
  if (code !== null)
    statuses.set(code, { en: attributeOf(element, 'statusTextEn'), no: attributeOf(element, 'statusTextNo') })
}

/** What the XML reader looks for in each list. */
export const NAME_LISTS = {
  airports: { root: 'airportNames', feedName: 'the airportNames XML', item: 'airportName' },
  airlines: { root: 'airlineNames', feedName: 'the airlineNames XML', item: 'airlineName' },
  statuses: { root: 'flightStatuses', feedName: 'the flightStatuses XML', item: 'flightStatus' },
} as const satisfies Record<string, StreamedListSpec>

/** Reads `<root><item code=".." name=".."/>...</root>` into a map from code to name. */
function parseCodeNameList(body: string, list: StreamedListSpec): Map<string, string> {
  const names = new Map<string, string>()
  readXmlList(body, list, (element) => addCodeName(names, element))
  return names
}

/**
 * Parses the airportNames list (`<airportNames xmlns="..."><airportName code="OSL" name="Oslo"/>`)
 * into IATA code → name. Throws `InvalidFeedError` when the body is not that list.
 *
 * @example
 * parseAirportNames('<airportNames xmlns="http://www.avinor.no/xmlfeed/airportnames/v1.0">' +
 *   '<airportName code="TOS" name="Tromsø"/></airportNames>').get('TOS') // 'Tromsø'
 */
export function parseAirportNames(body: string): Map<string, string> {
  return parseCodeNameList(body, NAME_LISTS.airports)
}

/**
 * Parses the airlineNames list (`<airlineNames><airlineName code="DY" name="Norwegian"/>`)
 * into IATA code → name. Throws `InvalidFeedError` when the body is not that list.
 *
 * @example
 * parseAirlineNames('<airlineNames><airlineName code="WF" name="Widerøe"/></airlineNames>').get('WF') // 'Widerøe'
 */
export function parseAirlineNames(body: string): Map<string, string> {
  return parseCodeNameList(body, NAME_LISTS.airlines)
}

/**
 * Parses the flightStatuses list (`<flightStatus code="A" statusTextEn="Arrived" statusTextNo="Landet"/>`)
 * into status code → texts. Throws `InvalidFeedError` when the body is not that list.
 *
 * @example
 * parseFlightStatuses('<flightStatuses><flightStatus code="A" statusTextEn="Arrived" statusTextNo="Landet"/>' +
 *   '</flightStatuses>').get('A') // { en: 'Arrived', no: 'Landet' }
 */
export function parseFlightStatuses(body: string): Map<string, StatusText> {
  const statuses = new Map<string, StatusText>()
  readXmlList(body, NAME_LISTS.statuses, (element) => addStatus(statuses, element))
  return statuses
}
