import type { SiriCall, SiriJourney } from './siri-et-document.js'
import { nameKey, normalizeCode, stationOfCall } from './stations.js'

/** The stop a board is for: a code, and a name for answers that give NSR quays instead. */
export interface BoardStop {
  code: string
  name: string | null
}

export type BoardDirection = 'departures' | 'arrivals' | 'both'
export type ServiceFilter = 'all' | 'passenger' | 'freight'

/** One train calling at the stop, as `get_station_board` answers it. */
export interface BoardRow {
  train: string | null
  journey_id: string | null
  origin: string | null
  origin_code: string | null
  destination: string | null
  destination_code: string | null
  at_stop: {
    aimed_arrival: string | null
    expected_arrival: string | null
    actual_arrival: string | null
    aimed_departure: string | null
    expected_departure: string | null
    actual_departure: string | null
  }
  departure_status: string | null
  arrival_status: string | null
  track: string | null
  service: 'passenger' | 'freight' | 'bus' | null
  operator: string | null
  operator_name: string | null
  line: string | null
  product_category: string | null
  delay_minutes: number | null
  cancelled: boolean
}

/** The operators Bane NOR's answers were seen to name, by code; a code missing here is answered without a name. */
const OPERATOR_NAMES: Record<string, string> = {
  VY: 'Vy',
  NSB: 'Vy',
  FLY: 'Flytoget',
  FLT: 'Flytoget',
  GOA: 'Go-Ahead Nordic',
  SJ: 'SJ',
  SJN: 'SJ Nord',
  CN: 'CargoNet',
  GC: 'Green Cargo',
  GR: 'Grenland Rail',
  HER: 'Hector Rail',
  MTA: 'LKAB Malmtrafik',
}

const MINUTE_MS = 60_000

/** A train that left up to this long ago is still on the board, as station screens keep it a moment. */
const LEFT_GRACE_MS = 2 * MINUTE_MS

const codeOf = (ref: string | null) => (ref && !ref.startsWith('NSR:') ? normalizeCode(ref) : null)

function serviceOf(journey: SiriJourney): BoardRow['service'] {
  const features = journey.serviceFeatureRefs.map((f) => f.toLowerCase())
  if (features.includes('freighttrain')) return 'freight'
  if (features.includes('passengertrain')) return 'passenger'
  if (features.includes('bus') || journey.vehicleMode === 'bus') return 'bus'
  return null
}

/** `NSB:Line:L13` is L13; freight trains carry `CN:Line:-`, which is no line. */
function lineOf(journey: SiriJourney): string | null {
  if (journey.publishedLineName) return journey.publishedLineName
  const ref = journey.lineRef?.split('$')[0]
  const tail = ref?.split(':').pop()?.trim()
  return tail && tail !== '-' ? tail : null
}

function trainOf(journey: SiriJourney): string | null {
  if (journey.vehicleRef) return journey.vehicleRef
  // Bane NOR's DatedVehicleJourneyRef is `<train number>:<date>`.
  const dated = journey.datedVehicleJourneyRef
  return dated && /^\d+:/.test(dated) ? dated.slice(0, dated.indexOf(':')) : dated
}

function callIsAt(call: SiriCall, stop: BoardStop): boolean {
  const station = stationOfCall(call.stopPointRef, call.stopPointName)
  if (station) return station.code === stop.code
  if (codeOf(call.stopPointRef) === stop.code) return true
  return stop.name !== null && call.stopPointName !== null && nameKey(call.stopPointName) === nameKey(stop.name)
}

function statusOf(
  given: string | null,
  journeyCancelled: boolean,
  callCancelled: boolean,
  hasTime: boolean,
): string | null {
  if (!hasTime) return null
  if (journeyCancelled) return 'cancelled'
  // Bane NOR's own answers may mark a cancelled stop with Cancellation alone.
  if (callCancelled && (given === null || given === 'onTime')) return 'cancelled'
  return given
}

const timeOf = (value: string | null) => (value ? Date.parse(value) : NaN)

function minutesLate(aimed: string | null, expected: string | null): number | null {
  const a = timeOf(aimed)
  const e = timeOf(expected)
  if (Number.isNaN(a) || Number.isNaN(e)) return null
  return Math.round((e - a) / MINUTE_MS)
}

/**
 * The trains calling at a stop within `minutesAhead` of `now` (and those that left up to two
 * minutes ago), soonest first: for departures the trains leaving the stop, for arrivals the
 * trains arriving, for both either. A cancelled train stays on the board with its status
 * `cancelled`. Origin and destination are the journey's own when it gives them, else its
 * first and last stop.
 *
 * @example
 * buildStationBoard(data.journeys, { code: 'OSL', name: 'Oslo S' }, { now: Date.now(), minutesAhead: 60, direction: 'departures', service: 'all' })
 */
export function buildStationBoard(
  journeys: readonly SiriJourney[],
  stop: BoardStop,
  options: { now: number; minutesAhead: number; direction: BoardDirection; service: ServiceFilter },
): BoardRow[] {
  const until = options.now + options.minutesAhead * MINUTE_MS
  const from = options.now - LEFT_GRACE_MS
  const rows: { row: BoardRow; at: number }[] = []
  for (const journey of journeys) {
    const service = serviceOf(journey)
    if (options.service !== 'all' && service !== options.service) continue
    const call = journey.calls.find((c) => callIsAt(c, stop))
    if (!call) continue
    const departs = call.aimedDeparture ?? call.expectedDeparture
    const arrives = call.aimedArrival ?? call.expectedArrival
    if (options.direction === 'departures' && !departs) continue
    if (options.direction === 'arrivals' && !arrives) continue
    const departureAt = timeOf(call.actualDeparture ?? call.expectedDeparture ?? call.aimedDeparture)
    const arrivalAt = timeOf(call.actualArrival ?? call.expectedArrival ?? call.aimedArrival)
    const at =
      options.direction === 'arrivals'
        ? arrivalAt
        : options.direction === 'departures'
          ? departureAt
          : Number.isNaN(departureAt)
            ? arrivalAt
            : departureAt
    if (Number.isNaN(at) || at < from || at > until) continue
    const first = journey.calls[0]!
    const last = journey.calls[journey.calls.length - 1]!
    const cancelledHere = journey.cancellation || call.cancellation
    const lateBy =
      options.direction === 'arrivals' || !departs
        ? minutesLate(call.aimedArrival, call.actualArrival ?? call.expectedArrival)
        : minutesLate(call.aimedDeparture, call.actualDeparture ?? call.expectedDeparture)
    const operator = journey.operatorRef
    rows.push({
      at,
      row: {
        train: trainOf(journey),
        journey_id: journey.datedVehicleJourneyRef,
        origin: journey.originName ?? first.stopPointName,
        origin_code:
          codeOf(journey.originRef) ??
          stationOfCall(first.stopPointRef, first.stopPointName)?.code ??
          codeOf(first.stopPointRef),
        destination: journey.destinationName ?? call.destinationDisplay ?? last.stopPointName,
        destination_code:
          codeOf(journey.destinationRef) ??
          stationOfCall(last.stopPointRef, last.stopPointName)?.code ??
          codeOf(last.stopPointRef),
        at_stop: {
          aimed_arrival: call.aimedArrival,
          expected_arrival: call.expectedArrival,
          actual_arrival: call.actualArrival,
          aimed_departure: call.aimedDeparture,
          expected_departure: call.expectedDeparture,
          actual_departure: call.actualDeparture,
        },
        departure_status: statusOf(call.departureStatus, journey.cancellation, call.cancellation, departs !== null),
        arrival_status: statusOf(call.arrivalStatus, journey.cancellation, call.cancellation, arrives !== null),
        track: call.departurePlatform ?? call.arrivalPlatform,
        service,
        operator,
        operator_name: operator ? (OPERATOR_NAMES[operator.toUpperCase()] ?? null) : null,
        line: lineOf(journey),
        product_category: journey.productCategoryRef,
        delay_minutes: cancelledHere ? null : lateBy,
        cancelled: cancelledHere,
      },
    })
  }
  return rows.sort((a, b) => a.at - b.at).map((r) => r.row)
}
