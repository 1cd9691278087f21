import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, defineOperation } from '@allmenning/core/source'
import { postGraphql } from '../shared/graphql-request.js'
import { enturTurn, type EnturAccess } from './entur-calls.js'
import { enturJourneyPlanner } from './entur-upstreams.js'

// The line twice: clients of Entur read it as serviceJourney.line and as
// serviceJourney.journeyPattern.line, and the public gateway passed Entur's estimatedCalls on.
const lineFields = 'id publicCode name transportMode'
/** The JourneyPlanner v3 query: departures from one stop place, cancelled ones included and marked. */
export const DEPARTURES_QUERY = `query StopPlaceDepartures($id: String!, $numberOfDepartures: Int!, $timeRange: Int!) {
  stopPlace(id: $id) {
    id
    name
    estimatedCalls(numberOfDepartures: $numberOfDepartures, timeRange: $timeRange, includeCancelledTrips: true) {
      realtime
      cancellation
      date
      forBoarding
      forAlighting
      aimedArrivalTime
      expectedArrivalTime
      actualArrivalTime
      aimedDepartureTime
      expectedDepartureTime
      actualDepartureTime
      destinationDisplay { frontText }
      quay { id name publicCode }
      serviceJourney {
        id
        line { ${lineFields} }
        journeyPattern { line { ${lineFields} } }
      }
    }
  }
}`

const text = (description: string) => v.optional(v.pipe(v.nullable(v.string()), v.description(description)))
const flag = (description: string) => v.optional(v.pipe(v.nullable(v.boolean()), v.description(description)))

const line = v.object({
  id: text('Line id, e.g. RUT:Line:31'),
  publicCode: text('The number or code on the vehicle, e.g. 31 or L2'),
  name: text('Name of the line'),
  transportMode: text("Entur's mode, lower case: bus, rail, tram, metro, water, air, coach"),
})

const estimatedCall = v.object({
  realtime: flag('Whether the expected times come from real-time data'),
  cancellation: flag('Whether this call is cancelled'),
  date: text('Operating day of the service journey (YYYY-MM-DD)'),
  forBoarding: flag('Whether passengers may board here'),
  forAlighting: flag('Whether passengers may alight here'),
  aimedArrivalTime: text('Timetabled arrival, ISO 8601 with Oslo offset'),
  expectedArrivalTime: text('Expected arrival, ISO 8601 with Oslo offset'),
  actualArrivalTime: text('Recorded arrival, once it has happened'),
  aimedDepartureTime: text('Timetabled departure, ISO 8601 with Oslo offset'),
  expectedDepartureTime: text('Expected departure, ISO 8601 with Oslo offset'),
  actualDepartureTime: text('Recorded departure, once it has happened'),
  destinationDisplay: v.optional(v.nullable(v.object({ frontText: text('The destination shown on the vehicle') }))),
  quay: v.optional(
    v.nullable(
      v.object({
        id: text('Quay (platform, stand) id'),
        name: text('Quay name'),
        publicCode: text('Platform or stand sign, e.g. B or 3'),
      }),
    ),
  ),
  serviceJourney: v.optional(
    v.nullable(
      v.object({
        id: text('Service journey id'),
        line: v.optional(v.nullable(line)),
        journeyPattern: v.optional(v.nullable(v.object({ line: v.optional(v.nullable(line)) }))),
      }),
    ),
  ),
})

const departures = v.object({
  id: v.pipe(v.string(), v.description('NSR id of the stop place')),
  name: v.pipe(v.string(), v.description('Name of the stop place')),
  estimatedCalls: v.pipe(
    v.array(estimatedCall),
    v.description("The next departures, soonest first, in the shape Entur's GraphQL API gives them"),
  ),
})

// What JourneyPlanner answers: stopPlace is null for an id it does not know.
const answer = v.looseObject({ stopPlace: v.nullable(departures) })

/**
 * Builds `get_departures`: the next departures from a stop place, `{id, name, estimatedCalls}`
 * exactly as Entur's JourneyPlanner v3 gives `data.stopPlace`, which is what the public
 * gateway answered and its clients read.
 *
 * @example
 * const getDepartures = createGetDepartures({ budget: enturRequestBudget, clientName: undefined })
 */
export function createGetDepartures(access: EnturAccess) {
  return defineOperation({
    description:
      "The next departures from a public transport stop place in Norway, with real-time estimates and cancellations, from Entur's JourneyPlanner v3. Find stop_place_id with search_stops or find_stops_nearby.",
    parameters: {
      stop_place_id: v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^NSR:StopPlace:\d{1,12}$/, 'must be an NSR stop place id such as NSR:StopPlace:337'),
        v.description('NSR id of the stop place, e.g. NSR:StopPlace:337'),
      ),
      number_of_departures: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(100),
          v.description('How many departures, 1..100; 20 when left out'),
        ),
        20,
      ),
      time_range_seconds: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(60),
          v.maxValue(172_800),
          v.description('How far ahead to look, in seconds, 60..172800 (two days); 86400 when left out'),
        ),
        86_400,
      ),
    },
    output: departures,
    shapeNote:
      "data is Entur's data.stopPlace, {id, name, estimatedCalls}, as the public gateway answered it; the line is given both as serviceJourney.line and serviceJourney.journeyPattern.line, as Entur's clients read either.",
    canonicalFieldAliases: { name: ['name'], timestamp: ['estimatedCalls[].expectedDepartureTime'] },
    // Real-time estimates move by the minute.
    cacheTtlSeconds: 30,

    async run(params, ctx) {
      const client = ctx.upstream(enturJourneyPlanner)
      const headers = await enturTurn(access, client)
      const { data } = await postGraphql(
        client,
        '/graphql',
        {
          query: DEPARTURES_QUERY,
          variables: {
            id: params.stop_place_id,
            numberOfDepartures: params.number_of_departures,
            timeRange: params.time_range_seconds,
          },
        },
        headers,
      )
      const { stopPlace } = checkUpstreamShape(client, answer, data, 'the departures')
      if (!stopPlace)
        throw new GatewayError(404, 'entity_not_found', `Entur knows no stop place ${params.stop_place_id}`)
      return { data: stopPlace }
    },

    entities: (data) => [{ type: 'stop_place', id: data.id, name: data.name }],
  })
}
