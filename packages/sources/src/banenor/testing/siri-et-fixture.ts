import { osloDate, osloDateTime } from '../../shared/oslo-time.js'

/** One stop of a fixture journey; times are minutes from the instant the answer is written for. */
export interface FixtureCall {
  /** Bane NOR's station code, as its own answers put it in StopPointRef. */
  code: string
  name: string
  /** An NSR quay written in StopPointRef instead of the code, as answers that passed Entur's mapping have. */
  quay?: string
  arrive?: number
  depart?: number
  /** Minutes late, for the expected (or actual) times. */
  late?: number
  track?: string
  /** The call alone is cancelled (Cancellation and its statuses). */
  cancelled?: boolean
}

/** One train of the fixture network. */
export interface FixtureJourney {
  train: string
  /** The line's code (L1, R11, F2); null writes `<operator>:Line:-`, as freight trains have. */
  line: string | null
  operator: string
  feature: 'passengerTrain' | 'freightTrain'
  /** The whole journey is cancelled. */
  cancelled?: boolean
  /** Writes OriginRef/OriginName and DestinationRef/DestinationName, as about a third of Bane NOR's journeys have. */
  ends?: boolean
  product?: string
  calls: FixtureCall[]
}

/**
 * The demo's network, written for it (no recorded trains): around Oslo S, Nationaltheatret,
 * Skøyen, Bryn and the Alnabru freight terminal, with a Flytoget train, two CargoNet freight
 * trains (one through Oslo S), a cancelled train (Oslo S–Skien), a cancelled stop, a train that
 * has left, one written with NSR quays instead of codes, and trains at Trondheim and Bergen.
 */
export const DEMO_NETWORK: readonly FixtureJourney[] = [
  {
    train: '2218',
    line: 'L1',
    operator: 'VY',
    feature: 'passengerTrain',
    calls: [
      { code: 'SPI', name: 'Spikkestad', depart: -40 },
      { code: 'SKØ', name: 'Skøyen', arrive: 2, depart: 3, late: 1, track: '2' },
      { code: 'NTH', name: 'Nationaltheatret', arrive: 5, depart: 6, late: 1, track: '2' },
      { code: 'OSL', name: 'Oslo S', arrive: 9, depart: 10, late: 1, track: '4' },
      { code: 'BR', name: 'Bryn', arrive: 15, depart: 15, late: 1, track: '1' },
      { code: 'LLS', name: 'Lillestrøm', arrive: 24 },
    ],
  },
  {
    train: '861',
    line: 'R11x',
    operator: 'VY',
    feature: 'passengerTrain',
    cancelled: true,
    ends: true,
    calls: [
      { code: 'OSL', name: 'Oslo S', depart: 15, track: '9' },
      { code: 'NTH', name: 'Nationaltheatret', arrive: 18, depart: 19, track: '1' },
      { code: 'DRM', name: 'Drammen', arrive: 50, depart: 51 },
      { code: 'SKN', name: 'Skien', arrive: 140 },
    ],
  },
  {
    train: '3525',
    line: 'F2',
    operator: 'FLY',
    feature: 'passengerTrain',
    ends: true,
    calls: [
      { code: 'SKØ', name: 'Skøyen', depart: 1, late: 2, track: '3' },
      { code: 'NTH', name: 'Nationaltheatret', arrive: 3, depart: 4, late: 2, track: '3' },
      { code: 'OSL', name: 'Oslo S', arrive: 7, depart: 8, late: 2, track: '13' },
      { code: 'LLS', name: 'Lillestrøm', arrive: 17, depart: 18, late: 2, track: '4' },
      { code: 'GAR', name: 'Oslo Lufthavn', arrive: 27, late: 2, track: '2' },
    ],
  },
  {
    train: '5501',
    line: null,
    operator: 'CN',
    feature: 'freightTrain',
    ends: true,
    calls: [
      { code: 'ALB', name: 'Alnabru', depart: 5, track: 'G 4' },
      { code: 'LLS', name: 'Lillestrøm', arrive: 22, depart: 23 },
      { code: 'HMR', name: 'Hamar', arrive: 95, depart: 100 },
      { code: 'TND', name: 'Trondheim', arrive: 420 },
    ],
  },
  {
    train: '41823',
    line: null,
    operator: 'CN',
    feature: 'freightTrain',
    ends: true,
    calls: [
      { code: 'DRM', name: 'Drammen', depart: -10 },
      { code: 'SKØ', name: 'Skøyen', arrive: 13, depart: 13, late: 4 },
      { code: 'OSL', name: 'Oslo S', arrive: 20, depart: 22, late: 4, track: '19' },
      { code: 'BR', name: 'Bryn', arrive: 27, depart: 27, late: 4 },
      { code: 'ALB', name: 'Alnabru', arrive: 35, late: 4, track: 'G 2' },
    ],
  },
  {
    train: '1817',
    line: 'L2',
    operator: 'VY',
    feature: 'passengerTrain',
    calls: [
      { code: 'STB', name: 'Stabekk', depart: 0 },
      { code: 'SKØ', name: 'Skøyen', arrive: 8, depart: 8, track: '1' },
      { code: 'NTH', name: 'Nationaltheatret', arrive: 11, depart: 11, track: '1' },
      { code: 'OSL', name: 'Oslo S', arrive: 14, depart: 15, track: '3', cancelled: true },
      { code: 'SKI', name: 'Ski', arrive: 36 },
    ],
  },
  {
    train: '315',
    line: 'R10',
    operator: 'VY',
    feature: 'passengerTrain',
    product: 'IC',
    calls: [
      { code: 'DRM', name: 'Drammen', quay: 'NSR:Quay:18', depart: -25 },
      { code: 'NTH', name: 'Nationaltheatret', quay: 'NSR:Quay:477', arrive: 1, depart: 2, late: 2, track: '3' },
      { code: 'OSL', name: 'Oslo S', quay: 'NSR:Quay:571', arrive: 5, depart: 7, late: 2, track: '11' },
      { code: 'LLS', name: 'Lillestrøm', quay: 'NSR:Quay:754', arrive: 17, depart: 18, late: 2 },
      { code: 'HMR', name: 'Hamar', quay: 'NSR:Quay:1001', arrive: 75, depart: 76 },
    ],
  },
  {
    train: '2150',
    line: 'R14',
    operator: 'VY',
    feature: 'passengerTrain',
    calls: [
      { code: 'KVG', name: 'Kongsvinger', depart: -50 },
      { code: 'LLS', name: 'Lillestrøm', arrive: -5, depart: -4 },
      { code: 'OSL', name: 'Oslo S', arrive: 12, late: 6, track: '7' },
    ],
  },
  {
    train: '2207',
    line: 'L1',
    operator: 'VY',
    feature: 'passengerTrain',
    calls: [
      { code: 'LLS', name: 'Lillestrøm', depart: -30 },
      { code: 'OSL', name: 'Oslo S', arrive: -16, depart: -15, track: '4' },
      { code: 'NTH', name: 'Nationaltheatret', arrive: -12, depart: -11 },
      { code: 'SPI', name: 'Spikkestad', arrive: 25 },
    ],
  },
  {
    train: '45',
    line: 'RE26',
    operator: 'SJN',
    feature: 'passengerTrain',
    ends: true,
    calls: [
      { code: 'TND', name: 'Trondheim S', depart: 20, track: '1' },
      { code: 'STJ', name: 'Steinkjer', arrive: 140, depart: 142 },
      { code: 'BO', name: 'Bodø', arrive: 600 },
    ],
  },
  {
    train: '602',
    line: 'F4',
    operator: 'VY',
    feature: 'passengerTrain',
    ends: true,
    calls: [
      { code: 'BRG', name: 'Bergen', depart: 30, track: '2' },
      { code: 'ARN', name: 'Arna', arrive: 38, depart: 39 },
      { code: 'OSL', name: 'Oslo S', arrive: 420 },
    ],
  },
]

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function element(name: string, value: string | undefined, indent: string): string {
  return value === undefined ? '' : `${indent}<${name}>${escape(value)}</${name}>\n`
}

function writeCall(call: FixtureCall, at: number, journeyCancelled: boolean): string {
  const minute = 60_000
  const time = (offset: number | undefined, late = 0) =>
    offset === undefined ? undefined : osloDateTime(at + (offset + late) * minute)
  const late = call.late ?? 0
  const cancelled = journeyCancelled || call.cancelled === true
  const leaves = call.depart ?? call.arrive
  const recorded = leaves !== undefined && leaves + late < 0 && !cancelled
  const status = cancelled ? 'cancelled' : late > 0 ? 'delayed' : 'onTime'
  const i = '                            '
  let out = `${i.slice(4)}<${recorded ? 'RecordedCall' : 'EstimatedCall'}>\n`
  out += element('StopPointRef', call.quay ?? call.code, i)
  out += element('StopPointName', call.name, i)
  if (cancelled) out += element('Cancellation', 'true', i)
  if (!recorded) out += element('RequestStop', 'false', i)
  if (call.arrive !== undefined) {
    out += element('AimedArrivalTime', time(call.arrive), i)
    out += element('ExpectedArrivalTime', time(call.arrive, late), i)
    if (recorded) out += element('ActualArrivalTime', time(call.arrive, late), i)
    else out += element('ArrivalStatus', status, i)
    out += element('ArrivalPlatformName', call.track, i)
    if (!recorded) out += element('ArrivalBoardingActivity', 'alighting', i)
  }
  if (call.depart !== undefined) {
    out += element('AimedDepartureTime', time(call.depart), i)
    out += element('ExpectedDepartureTime', time(call.depart, late), i)
    if (!recorded) out += element('DepartureStatus', status, i)
    out += element('DeparturePlatformName', call.track, i)
    if (recorded) out += element('ActualDepartureTime', time(call.depart, late), i)
    else out += element('DepartureBoardingActivity', 'boarding', i)
  }
  return `${out}${i.slice(4)}</${recorded ? 'RecordedCall' : 'EstimatedCall'}>\n`
}

function writeJourney(journey: FixtureJourney, at: number): string {
  const i = '                    '
  const first = journey.calls[0]!
  const last = journey.calls[journey.calls.length - 1]!
  const date = osloDate(at)
  let out = `${i.slice(4)}<EstimatedVehicleJourney>\n`
  out += element('LineRef', `${journey.operator === 'VY' ? 'NSB' : journey.operator}:Line:${journey.line ?? '-'}`, i)
  out += element('DirectionRef', last.name, i)
  out += element('DatedVehicleJourneyRef', `${journey.train}:${date}`, i)
  if (journey.cancelled) out += element('Cancellation', 'true', i)
  out += element('VehicleMode', 'rail', i)
  if (journey.ends) {
    out += element('OriginRef', first.code, i)
    out += element('OriginName', first.name, i)
    out += element('DestinationRef', last.code, i)
    out += element('DestinationName', last.name, i)
  }
  out += element('OperatorRef', journey.operator, i)
  out += element('ProductCategoryRef', journey.product, i)
  out += element('ServiceFeatureRef', journey.feature, i)
  out += element('DataSource', 'BNR', i)
  out += element('VehicleRef', journey.train, i)
  const calls = journey.calls.map((call) => ({ call, xml: writeCall(call, at, journey.cancelled === true) }))
  const recorded = calls.filter((c) => c.xml.includes('<RecordedCall>'))
  const estimated = calls.filter((c) => !c.xml.includes('<RecordedCall>'))
  if (recorded.length > 0) out += `${i}<RecordedCalls>\n${recorded.map((c) => c.xml).join('')}${i}</RecordedCalls>\n`
  if (estimated.length > 0)
    out += `${i}<EstimatedCalls>\n${estimated.map((c) => c.xml).join('')}${i}</EstimatedCalls>\n`
  out += element('IsCompleteStopSequence', 'true', i)
  return `${out}${i.slice(4)}</EstimatedVehicleJourney>\n`
}

/**
 * A SIRI 2.1 EstimatedTimetable answer as Bane NOR writes it, for `journeys` with their times
 * shifted to `at`: the default SIRI namespace with the ifopt/acsb/datex2 declarations beside it,
 * Oslo's local times with their offset, the train number in VehicleRef and in
 * DatedVehicleJourneyRef (`<train>:<date>`), Bane NOR's station codes in StopPointRef (or an NSR
 * quay where the fixture says so), ServiceFeatureRef passengerTrain or freightTrain, and
 * `<operator>:Line:-` for trains on no line. Written after the shape of a recorded Bane NOR
 * answer (see docs/upstreams/banenor_siri_et.md); the trains are the fixture's own.
 *
 * @example
 * const xml = siriEtAnswer(DEMO_NETWORK, Date.now())
 */
export function siriEtAnswer(
  journeys: readonly FixtureJourney[],
  at: number,
  options: { moreData?: boolean } = {},
): string {
  const now = osloDateTime(at)
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Siri xmlns="http://www.siri.org.uk/siri" xmlns:ns2="http://www.ifopt.org.uk/acsb" xmlns:ns3="http://www.ifopt.org.uk/ifopt" xmlns:ns4="http://datex2.eu/schema/2_0RC1/2_0" version="2.1">
    <ServiceDelivery>
        <ResponseTimestamp>${now}</ResponseTimestamp>
        <ProducerRef>BNR</ProducerRef>
        <MoreData>${options.moreData === true}</MoreData>
        <EstimatedTimetableDelivery version="2.1">
            <ResponseTimestamp>${now}</ResponseTimestamp>
            <EstimatedJourneyVersionFrame>
                <RecordedAtTime>${now}</RecordedAtTime>
${journeys.map((j) => writeJourney(j, at)).join('')}            </EstimatedJourneyVersionFrame>
        </EstimatedTimetableDelivery>
    </ServiceDelivery>
</Siri>
`
}

/**
 * A SIRI answer carrying an ErrorCondition instead of journeys, as a SIRI service refuses a
 * request it cannot serve (the shape of SIRI 2.1's ServiceDeliveryErrorConditionStructure;
 * Bane NOR's own wording is not seen).
 *
 * @example
 * siriErrorAnswer('Unknown RequestorRef', Date.now())
 */
export function siriErrorAnswer(text: string, at: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Siri xmlns="http://www.siri.org.uk/siri" version="2.1">
    <ServiceDelivery>
        <ResponseTimestamp>${osloDateTime(at)}</ResponseTimestamp>
        <Status>false</Status>
        <ErrorCondition>
            <OtherError>
                <ErrorText>${escape(text)}</ErrorText>
            </OtherError>
        </ErrorCondition>
    </ServiceDelivery>
</Siri>
`
}
