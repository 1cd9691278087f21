import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { InvalidFeedError, screenXmlBody } from '../avinor/xml-document.js'

/** One stop of a journey as the SIRI ET answer gives it (RecordedCall or EstimatedCall). */
export interface SiriCall {
  /** Bane NOR's station code (`OSL`) in its own answers; an NSR quay (`NSR:Quay:571`) where it was mapped. */
  stopPointRef: string | null
  stopPointName: string | null
  /** True for a RecordedCall: the train has left (or passed) the stop. */
  recorded: boolean
  cancellation: boolean
  aimedArrival: string | null
  expectedArrival: string | null
  actualArrival: string | null
  aimedDeparture: string | null
  expectedDeparture: string | null
  actualDeparture: string | null
  /** onTime, delayed, cancelled, early, missed, … as SIRI's CallStatus says. */
  arrivalStatus: string | null
  departureStatus: string | null
  arrivalPlatform: string | null
  departurePlatform: string | null
  destinationDisplay: string | null
}

/** One EstimatedVehicleJourney: a train on one day, with its calls in order. */
export interface SiriJourney {
  lineRef: string | null
  directionRef: string | null
  datedVehicleJourneyRef: string | null
  /** The train number, as Bane NOR gives it. */
  vehicleRef: string | null
  cancellation: boolean
  vehicleMode: string | null
  originRef: string | null
  originName: string | null
  destinationRef: string | null
  destinationName: string | null
  operatorRef: string | null
  productCategoryRef: string | null
  publishedLineName: string | null
  /** `passengerTrain`, `freightTrain` (and `bus` for a replacement bus) in Bane NOR's answers. */
  serviceFeatureRefs: string[]
  calls: SiriCall[]
}

/** What one SIRI ET answer holds. */
export interface EstimatedTimetable {
  responseTimestamp: string | null
  producerRef: string | null
  /** SIRI's MoreData: true when the service kept part of the answer for a further request. */
  moreData: boolean
  journeys: SiriJourney[]
}

const FEED_NAME = 'a SIRI 2.1 EstimatedTimetable answer'

/** About this much XML is parsed between two turns of the event loop: about ten milliseconds of work. */
const SLICE_CHARS = 16 * 1024

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

const parser = new XMLParser({
  // Bane NOR writes SIRI in the default namespace; a publisher that writes `siri:` means the same elements.
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  processEntities: true,
  isArray: (name) =>
    name === 'EstimatedVehicleJourney' ||
    name === 'RecordedCall' ||
    name === 'EstimatedCall' ||
    name === 'ServiceFeatureRef',
})

const OPENING = /<(?:[A-Za-z_][\w.-]*:)?EstimatedVehicleJourney(?=[\s/>])/g
const CLOSING = /<\/(?:[A-Za-z_][\w.-]*:)?EstimatedVehicleJourney\s*>/g

type Node = Record<string, unknown>

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value)

function text(value: unknown): string | null {
  if (Array.isArray(value)) return text(value[0])
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (isNode(value) && '#text' in value) return text(value['#text'])
  return null
}

const flag = (value: unknown) => text(value)?.toLowerCase() === 'true'

function list(value: unknown): Node[] {
  if (Array.isArray(value)) return value.filter(isNode)
  return isNode(value) ? [value] : []
}

function readCall(call: Node, recorded: boolean): SiriCall {
  return {
    stopPointRef: text(call['StopPointRef']),
    stopPointName: text(call['StopPointName']),
    recorded,
    cancellation: flag(call['Cancellation']),
    aimedArrival: text(call['AimedArrivalTime']),
    expectedArrival: text(call['ExpectedArrivalTime']),
    actualArrival: text(call['ActualArrivalTime']),
    aimedDeparture: text(call['AimedDepartureTime']),
    expectedDeparture: text(call['ExpectedDepartureTime']),
    actualDeparture: text(call['ActualDepartureTime']),
    arrivalStatus: text(call['ArrivalStatus']),
    departureStatus: text(call['DepartureStatus']),
    arrivalPlatform: text(call['ArrivalPlatformName']),
    departurePlatform: text(call['DeparturePlatformName']),
    destinationDisplay: text(call['DestinationDisplay']),
  }
}

/**
 * One EstimatedVehicleJourney element, parsed, as a journey; null when it names no train at all
 * (no VehicleRef, DatedVehicleJourneyRef or FramedVehicleJourneyRef) or has no calls.
 *
 * @example
 * readJourney({ VehicleRef: '1617', RecordedCalls: { RecordedCall: [{ StopPointRef: 'OSL' }] } })
 */
export function readJourney(node: Node): SiriJourney | null {
  const framed = isNode(node['FramedVehicleJourneyRef']) ? node['FramedVehicleJourneyRef'] : undefined
  const dated = text(node['DatedVehicleJourneyRef']) ?? text(framed?.['DatedVehicleJourneyRef'])
  const vehicleRef = text(node['VehicleRef'])
  const recordedCalls = isNode(node['RecordedCalls']) ? list(node['RecordedCalls']['RecordedCall']) : []
  const estimatedCalls = isNode(node['EstimatedCalls']) ? list(node['EstimatedCalls']['EstimatedCall']) : []
  const calls = [...recordedCalls.map((c) => readCall(c, true)), ...estimatedCalls.map((c) => readCall(c, false))]
  if ((!dated && !vehicleRef && !text(node['EstimatedVehicleJourneyCode'])) || calls.length === 0) return null
  const features = Array.isArray(node['ServiceFeatureRef']) ? node['ServiceFeatureRef'] : [node['ServiceFeatureRef']]
  return {
    lineRef: text(node['LineRef']),
    directionRef: text(node['DirectionRef']),
    datedVehicleJourneyRef: dated ?? text(node['EstimatedVehicleJourneyCode']),
    vehicleRef,
    cancellation: flag(node['Cancellation']),
    vehicleMode: text(node['VehicleMode']),
    originRef: text(node['OriginRef']),
    originName: text(node['OriginName']),
    destinationRef: text(node['DestinationRef']),
    destinationName: text(node['DestinationName']),
    operatorRef: text(node['OperatorRef']),
    productCategoryRef: text(node['ProductCategoryRef']),
    publishedLineName: text(node['PublishedLineName']),
    serviceFeatureRefs: features.map(text).filter((f): f is string => f !== null),
    calls,
  }
}

function malformed(result: ReturnType<typeof XMLValidator.validate>, where: string): InvalidFeedError | undefined {
  if (result === true) return undefined
  const message = result.err.msg.replace(/\s+/g, ' ')
  return new InvalidFeedError(`answered malformed XML (${message} ${where}) instead of ${FEED_NAME}`)
}

/** The journeys' elements cut out of the document, and what is left around them. */
function cutJourneys(text: string): { skeleton: string; chunks: string[] } {
  const chunks: string[] = []
  let skeleton = ''
  let from = 0
  OPENING.lastIndex = 0
  for (let open = OPENING.exec(text); open; open = OPENING.exec(text)) {
    const tagEnd = text.indexOf('>', open.index)
    if (tagEnd === -1)
      throw new InvalidFeedError(`answered XML that breaks off inside a journey instead of ${FEED_NAME}`)
    skeleton += text.slice(from, open.index)
    if (text[tagEnd - 1] === '/') {
      from = tagEnd + 1
      OPENING.lastIndex = from
      continue
    }
    CLOSING.lastIndex = tagEnd
    const close = CLOSING.exec(text)
    if (!close) throw new InvalidFeedError(`answered XML that breaks off inside a journey instead of ${FEED_NAME}`)
    from = close.index + close[0].length
    chunks.push(text.slice(open.index, from))
    OPENING.lastIndex = from
  }
  return { skeleton: skeleton + text.slice(from), chunks }
}

/** The child of the answer's ServiceDelivery, or the reason the answer is not an ET delivery. */
function readEnvelope(skeleton: string): { delivery: Node; service: Node } {
  const invalid = malformed(XMLValidator.validate(skeleton), 'outside the journeys')
  if (invalid) throw invalid
  const document = parser.parse(skeleton) as Node
  const rootName = Object.keys(document).find((k) => k !== '?xml')
  if (rootName !== 'Siri') {
    const what = rootName?.toLowerCase() === 'html' ? 'an HTML page' : `XML with root element <${rootName ?? '(none)'}>`
    throw new InvalidFeedError(`answered ${what} instead of ${FEED_NAME}`)
  }
  const siri = isNode(document['Siri']) ? document['Siri'] : {}
  const service = list(siri['ServiceDelivery'])[0]
  if (!service) throw new InvalidFeedError(`answered a Siri document without a ServiceDelivery instead of ${FEED_NAME}`)
  const delivery = list(service['EstimatedTimetableDelivery'])[0]
  const error = isNode(service['ErrorCondition'])
    ? service['ErrorCondition']
    : isNode(delivery?.['ErrorCondition'])
      ? delivery['ErrorCondition']
      : undefined
  if (error || text(service['Status']) === 'false' || text(delivery?.['Status']) === 'false') {
    const said = error ? (findText(error, 'ErrorText') ?? findText(error, 'Description')) : null
    const kind = error ? Object.keys(error).find((k) => k !== 'Description') : undefined
    throw new InvalidFeedError(
      `answered a SIRI error${kind ? ` (${kind})` : ''}${said ? `: ${said.slice(0, 200)}` : ''}`,
    )
  }
  if (!delivery)
    throw new InvalidFeedError(
      `answered a ServiceDelivery without an EstimatedTimetableDelivery instead of ${FEED_NAME}`,
    )
  return { delivery, service }
}

function findText(node: Node, name: string): string | null {
  for (const [key, value] of Object.entries(node)) {
    if (key === name) return text(value)
    if (isNode(value)) {
      const found = findText(value, name)
      if (found) return found
    }
  }
  return null
}

/**
 * Reads a SIRI 2.1 EstimatedTimetable answer (`Siri/ServiceDelivery/EstimatedTimetableDelivery/
 * EstimatedJourneyVersionFrame/EstimatedVehicleJourney`, the default namespace or any prefix)
 * a slice at a time: the journeys are cut out of the text and parsed some 16 kB at a time with
 * a turn of the event loop between slices, so a whole network's answer of megabytes never
 * holds the loop for more than a few milliseconds. An empty, HTML or plain-text body,
 * malformed or cut-off XML, another document, or a SIRI ErrorCondition is an
 * {@link InvalidFeedError} whose reason completes "Upstream … ".
 *
 * @example
 * const { journeys } = await readEstimatedTimetable(body)
 * journeys[0]?.calls[0]?.stopPointRef // 'OSL'
 */
export async function readEstimatedTimetable(body: string): Promise<EstimatedTimetable> {
  const whole = screenXmlBody(body, FEED_NAME)
  const { skeleton, chunks } = cutJourneys(whole)
  const { delivery, service } = readEnvelope(skeleton)
  const journeys: SiriJourney[] = []
  let batch: string[] = []
  let size = 0
  const flush = async () => {
    if (batch.length === 0) return
    const xml = `<batch>${batch.join('')}</batch>`
    batch = []
    size = 0
    const invalid = malformed(XMLValidator.validate(xml), 'inside a journey')
    if (invalid) throw invalid
    const parsed = parser.parse(xml) as Node
    for (const node of list(isNode(parsed['batch']) ? parsed['batch']['EstimatedVehicleJourney'] : undefined)) {
      const journey = readJourney(node)
      if (journey) journeys.push(journey)
    }
    await nextTurn()
  }
  for (const chunk of chunks) {
    batch.push(chunk)
    size += chunk.length
    if (size >= SLICE_CHARS) await flush()
  }
  await flush()
  return {
    responseTimestamp: text(delivery['ResponseTimestamp']) ?? text(service['ResponseTimestamp']),
    producerRef: text(service['ProducerRef']),
    moreData: flag(service['MoreData']),
    journeys,
  }
}
