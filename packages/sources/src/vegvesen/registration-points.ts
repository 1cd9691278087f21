import * as v from 'valibot'
import { checkUpstreamShape, createTimedMemo, listSizeCheck, type UpstreamClient } from '@allmenning/core/source'
import { postGraphql } from '../shared/graphql-request.js'
import { isKnownPosition } from '../shared/nearest.js'
import { roadOfReference } from './road-reference.js'
import { vegvesenTrafikkdata } from './trafikkdata-upstream.js'

/**
 * Every registration point, in one question. `roadCategoryIds` with all five categories is the
 * filter Vegvesen's own examples use; the fields past id, name and coordinates are the ones
 * clients read (the shape check takes each of them as optional).
 */
export const REGISTRATION_POINTS_QUERY = `query RegistrationPoints {
  trafficRegistrationPoints(searchQuery: { roadCategoryIds: [E, R, F, K, P] }) {
    id
    name
    trafficRegistrationType
    operationalStatus
    registrationFrequency
    location {
      coordinates { latLon { lat lon } }
      roadReference { shortForm }
      county { name number }
      municipality { name number }
    }
    dataTimeSpan { firstData latestData { volumeByHour } }
  }
}`

const text = v.optional(v.nullable(v.string()))
const numberOrText = v.optional(v.nullable(v.union([v.number(), v.string()])))
const named = v.optional(v.nullable(v.looseObject({ name: text, number: numberOrText })))

const point = v.looseObject({
  id: v.string(),
  name: text,
  trafficRegistrationType: text,
  operationalStatus: text,
  registrationFrequency: text,
  location: v.optional(
    v.nullable(
      v.looseObject({
        coordinates: v.optional(
          v.nullable(
            v.looseObject({ latLon: v.optional(v.nullable(v.looseObject({ lat: v.unknown(), lon: v.unknown() }))) }),
          ),
        ),
        roadReference: v.optional(v.nullable(v.looseObject({ shortForm: text }))),
        county: named,
        municipality: named,
      }),
    ),
  ),
  dataTimeSpan: v.optional(
    v.nullable(
      v.looseObject({ firstData: text, latestData: v.optional(v.nullable(v.looseObject({ volumeByHour: text }))) }),
    ),
  ),
})

// The items are checked a slice at a time (below), so the list itself is only checked to be one.
const answer = v.looseObject({ trafficRegistrationPoints: v.array(v.unknown()) })

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

/** A registration point as the source answers it. */
export const registrationPointSchema = v.object({
  id: v.pipe(v.string(), v.description('Id of the registration point, e.g. 44656V72812; get_traffic_volume takes it')),
  name: v.pipe(v.string(), v.description('Name of the registration point')),
  traffic_type: nullableText('What it counts: VEHICLE or BICYCLE'),
  road: nullableText('The road it stands on, e.g. EV6, RV4, FV44'),
  road_reference: nullableText('Its place in the road reference, e.g. EV6 S26D1 m1234'),
  county: nullableText('County'),
  county_number: v.pipe(v.nullable(v.number()), v.description('County number')),
  municipality: nullableText('Municipality'),
  municipality_number: v.pipe(v.nullable(v.number()), v.description('Municipality number')),
  lat: v.pipe(v.nullable(v.number()), v.description('WGS84 latitude, or null when Vegvesen gives none')),
  lon: v.pipe(v.nullable(v.number()), v.description('WGS84 longitude, or null when Vegvesen gives none')),
  operational_status: nullableText('OPERATIONAL, TEMPORARILY_OUT_OF_SERVICE, RETIRED, ...'),
  registration_frequency: nullableText('CONTINUOUS or PERIODIC'),
  first_data: nullableText('When its data begins'),
  latest_hour: nullableText('The latest hour with volume data'),
})

/** One registration point. */
export type RegistrationPoint = v.InferOutput<typeof registrationPointSchema>

const present = (value: string | null | undefined) => (value && value.trim() !== '' ? value.trim() : null)
const whole = (value: number | string | null | undefined) => {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
  return typeof n === 'number' && Number.isInteger(n) ? n : null
}

/** Points checked and mapped between turns of the event loop: some thousands take some tens of milliseconds. */
const SLICE = 1000

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

function toRegistrationPoint(p: v.InferOutput<typeof point>): RegistrationPoint {
  const latLon = p.location?.coordinates?.latLon
  const position = latLon && isKnownPosition(latLon) ? latLon : null
  const roadReference = present(p.location?.roadReference?.shortForm)
  return {
    id: p.id,
    name: present(p.name) ?? p.id,
    traffic_type: present(p.trafficRegistrationType),
    road: roadOfReference(roadReference),
    road_reference: roadReference,
    county: present(p.location?.county?.name),
    county_number: whole(p.location?.county?.number),
    municipality: present(p.location?.municipality?.name),
    municipality_number: whole(p.location?.municipality?.number),
    lat: position?.lat ?? null,
    lon: position?.lon ?? null,
    operational_status: present(p.operationalStatus),
    registration_frequency: present(p.registrationFrequency),
    first_data: present(p.dataTimeSpan?.firstData),
    latest_hour: present(p.dataTimeSpan?.latestData?.volumeByHour),
  }
}

/**
 * Reads the GraphQL `data` of {@link REGISTRATION_POINTS_QUERY}, a thousand points per turn of
 * the event loop (the whole list is some megabytes). A point without a position keeps
 * `lat`/`lon` null (it can still be found by road or name), one without a name is named by its
 * id; a point in another shape is a 502 naming the upstream and the point's place in the list.
 *
 * @example
 * const points = await readRegistrationPoints(client, data)
 */
export async function readRegistrationPoints(client: UpstreamClient, data: unknown): Promise<RegistrationPoint[]> {
  const list = checkUpstreamShape(client, answer, data, 'the registration points').trafficRegistrationPoints
  const points: RegistrationPoint[] = []
  for (let start = 0; start < list.length; start += SLICE) {
    if (start > 0) await nextTurn()
    const end = Math.min(list.length, start + SLICE)
    for (let i = start; i < end; i++)
      points.push(
        toRegistrationPoint(checkUpstreamShape(client, point, list[i], `registration point ${i} of the list`)),
      )
  }
  return points
}

const DAY_MS = 86_400_000

/**
 * The list of every registration point, fetched once a day and shared by every operation of
 * one source: points are added and retired a few times a year. A failed reload keeps the last
 * list for a week; an empty list, or one that lost half of the last, is refused.
 *
 * @example
 * const list = createRegistrationPointList()
 * const points = await list.get(ctx.upstream(vegvesenTrafikkdata))
 */
export function createRegistrationPointList() {
  const memo = createTimedMemo<RegistrationPoint[]>({
    ttlMs: DAY_MS,
    staleMs: 7 * DAY_MS,
    errorTtlMs: 60_000,
    maxEntries: 1,
    plausible: listSizeCheck({
      upstream: vegvesenTrafikkdata,
      what: 'registration point list',
      count: (points) => points.length,
    }),
  })
  return {
    get(client: UpstreamClient): Promise<RegistrationPoint[]> {
      return memo.get(
        'all',
        async () =>
          await readRegistrationPoints(
            client,
            (await postGraphql(client, '/', { query: REGISTRATION_POINTS_QUERY })).data,
          ),
      )
    },
  }
}

/** The memoized point list of one `vegvesen()` source. */
export type RegistrationPointList = ReturnType<typeof createRegistrationPointList>
