import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { banenorSiriEt } from './banenor-upstream.js'
import { PREVIEW_MINUTES, type EtFeed } from './et-feed.js'
import { buildStationBoard, type BoardStop } from './station-board.js'
import { stationOutput, stationSchema, type StationOutput } from './station-output.js'
import { findStation, normalizeCode, stationOfCall } from './stations.js'

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const trainSchema = v.object({
  train: text('Train number, e.g. 509; a freight train has one too'),
  journey_id: text("Bane NOR's id of the train's journey that day (DatedVehicleJourneyRef), e.g. 509:2026-11-28"),
  origin: text('Where the train starts'),
  origin_code: text("Bane NOR's code of where the train starts"),
  destination: text('Where the train ends'),
  destination_code: text("Bane NOR's code of where the train ends"),
  at_stop: v.pipe(
    v.object({
      aimed_arrival: text('Timetabled arrival at the station (ISO 8601 with offset); null where the train starts'),
      expected_arrival: text('Expected arrival, as Bane NOR estimates it now'),
      actual_arrival: text('When it arrived, once it has'),
      aimed_departure: text('Timetabled departure; null where the train ends'),
      expected_departure: text('Expected departure, as Bane NOR estimates it now'),
      actual_departure: text('When it left, once it has'),
    }),
    v.description('The train at the station asked about'),
  ),
  departure_status: text(
    "SIRI's status of the departure: onTime, delayed, cancelled, early; null where the train ends",
  ),
  arrival_status: text("SIRI's status of the arrival: onTime, delayed, cancelled, early; null where the train starts"),
  track: text('Track (platform) at the station, where Bane NOR gives it, e.g. 11 or G 4'),
  service: v.pipe(
    v.nullable(v.picklist(['passenger', 'freight', 'bus'])),
    v.description('passenger or freight train (bus for a replacement bus)'),
  ),
  operator: text("The operator's code as Bane NOR gives it, e.g. VY (NSB in older answers), FLY, CN, GC"),
  operator_name: text('The operator by name, for the codes known: Vy, Flytoget, CargoNet, Green Cargo, …'),
  line: text('The line, e.g. L12, R11, F1x; null for freight trains, which run on none'),
  product_category: text("Bane NOR's product category where given, e.g. IC"),
  delay_minutes: v.pipe(
    v.nullable(v.number()),
    v.description(
      'Minutes behind the timetable at the station (negative when early); null when cancelled or not estimated',
    ),
  ),
  cancelled: v.pipe(v.boolean(), v.description('Whether the train, or its call at the station, is cancelled')),
})

/** A code Bane NOR might use for a station the table lacks: one to four letters. */
const CODE_PATTERN = /^[\p{L}]{1,4}$/u

/**
 * Builds `get_station_board` over the source's shared network timetable.
 *
 * @example
 * const getStationBoard = createGetStationBoard(createEtFeed({ subscriptionKey: 'k' }))
 */
export function createGetStationBoard(feed: EtFeed) {
  return defineOperation({
    description:
      "A live station board from Bane NOR's real-time train information (SIRI ET): the trains, passenger and freight, leaving (or arriving at) a station within minutes_ahead, soonest first, with where they come from and go, aimed and expected times, track, status (cancelled included), operator and line, and the station's own position. station_id is Bane NOR's station code (OSL, NTH, SKØ, BR, ALB; any case) or a station's name (list_stations finds them). Bane NOR is asked at most every 30 seconds; every board shares that one answer. Needs a Bane NOR subscription key (ALLMENNING_BANENOR_SUBSCRIPTION_KEY).",
    parameters: {
      station_id: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(1),
        v.maxLength(80),
        v.description(
          "Bane NOR's station code (OSL, NTH, SKØ, BR, ALB; any case), the station's name (Oslo S) or its NSR StopPlace id",
        ),
      ),
      minutes_ahead: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(PREVIEW_MINUTES),
          v.description(`How far ahead to look, in minutes (1..${PREVIEW_MINUTES})`),
        ),
        60,
      ),
      max_trains: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(200),
          v.description('Most trains on the board (1..200); the board says when it cut more'),
        ),
        50,
      ),
      direction: v.optional(
        v.pipe(
          v.picklist(['departures', 'arrivals', 'both']),
          v.description('departures (trains leaving the station), arrivals, or both'),
        ),
        'departures',
      ),
      service: v.optional(
        v.pipe(
          v.picklist(['all', 'passenger', 'freight']),
          v.description('all trains, or only passenger or only freight trains'),
        ),
        'all',
      ),
    },
    output: v.object({
      station: stationSchema,
      updated_at: text("When Bane NOR's answer was made (its ResponseTimestamp)"),
      trains: v.array(trainSchema),
    }),
    list: 'trains',
    cacheTtlSeconds: 30,
    canonicalFieldAliases: { name: ['station.name'], timestamp: ['trains[].at_stop.aimed_departure'] },
    shapeNote:
      "data is { station, trains }, as the public gateway's clients read it: trains[] has train, origin, destination, at_stop, departure_status, service, operator and line, and station has its lat and lon.",
    entities: (data) =>
      data.station.kind === 'unknown' ? [] : [{ type: 'train_station', id: data.station.id, name: data.station.name }],

    async run(params, ctx) {
      const client = ctx.upstream(banenorSiriEt)
      const known = findStation(params.station_id)
      if (!known && !CODE_PATTERN.test(params.station_id)) {
        throw new GatewayError(
          404,
          'entity_not_found',
          `No station named ${params.station_id} in the station table; list_stations finds stations by name or code`,
        )
      }
      const snapshot = await feed.get(client)
      const stop: BoardStop = known
        ? { code: known.code, name: known.name }
        : { code: normalizeCode(params.station_id), name: null }
      let station: StationOutput
      if (known) {
        station = stationOutput(known)
      } else {
        // A code the table lacks (a station opened since, a freight siding) is still answered, by the name Bane NOR gives it.
        const call = snapshot.journeys
          .flatMap((j) => j.calls)
          .find(
            (c) =>
              c.stopPointRef !== null &&
              normalizeCode(c.stopPointRef) === stop.code &&
              !stationOfCall(c.stopPointRef, null),
          )
        if (!call)
          throw new GatewayError(
            404,
            'entity_not_found',
            `No station with the code ${stop.code} in the station table, and no train calls there in Bane NOR's answer`,
          )
        station = {
          id: stop.code,
          name: call.stopPointName ?? stop.code,
          lat: null,
          lon: null,
          nsr_stop_place_id: null,
          kind: 'unknown',
        }
      }
      const rows = buildStationBoard(snapshot.journeys, stop, {
        now: Date.now(),
        minutesAhead: params.minutes_ahead,
        direction: params.direction,
        service: params.service,
      })
      const trains = rows.slice(0, params.max_trains)
      const rawValues: Record<string, unknown> = {
        journeys_in_answer: snapshot.journeys.length,
        trains_found: rows.length,
        answer_fetched_at: new Date(snapshot.fetchedAt).toISOString(),
      }
      const data = { station, updated_at: snapshot.responseTimestamp, trains }
      const reasons: string[] = []
      if (rows.length > params.max_trains)
        reasons.push(`max_trains=${params.max_trains}: ${rows.length} trains call within minutes_ahead`)
      // SIRI's MoreData: Bane NOR kept part of the network for a further request, so trains may be missing.
      if (snapshot.moreData)
        reasons.push(
          `Bane NOR marked its answer MoreData (${snapshot.journeys.length} journeys sent): trains may be missing`,
        )
      if (reasons.length === 0) return { data, rawValues }
      return {
        data,
        rawValues,
        capped: {
          cap: rows.length > params.max_trains ? params.max_trains : snapshot.journeys.length,
          reason: reasons.join('; '),
        },
      }
    },
  })
}
