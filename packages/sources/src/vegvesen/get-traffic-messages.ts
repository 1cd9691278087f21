import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { distanceKm, pointParameters, type Wgs84Point } from '../shared/wgs84-point.js'
import { SEVERITIES, situationState, type TrafficSituation } from './datex-situation.js'
import { vegvesenDatex } from './datex-upstream.js'
import { trafficMessagesPlaceField } from './place-fields.js'
import type { SituationFeed } from './situation-feed.js'

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const message = v.object({
  situation_id: v.pipe(v.string(), v.description("Vegvesen's id of the situation, e.g. NPRA_HBT_24-11-2026.1001")),
  type: text(
    'DATEX II type of its first record: MaintenanceWorks, Accident, RoadOrCarriagewayOrLaneManagement, EnvironmentalObstruction, …',
  ),
  sub_types: v.pipe(
    v.array(v.string()),
    v.description("The records' own kinds, once each: roadClosed, laneClosures, roadworks, followDiversionSigns, …"),
  ),
  description: text('What Vegvesen says of it, in Norwegian where given (the comments of its records)'),
  location: text('Where, as Vegvesen describes it, e.g. E18 Festningstunnelen, Oslo'),
  road: text('Road number as Vegvesen writes it, e.g. E18, Rv4, Fv44'),
  road_name: text('Name of the road or stretch, where given'),
  severity: v.pipe(
    v.nullable(v.picklist(SEVERITIES)),
    v.description('highest, high, medium, low, lowest or none; null when not given'),
  ),
  lat: v.pipe(v.number(), v.description('WGS84 latitude of the point a map shows it at')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude of the point a map shows it at')),
  distance_km: v.pipe(
    v.number(),
    v.description('Distance from lat/lon to the nearest of its positions, in kilometres'),
  ),
  start_time: text('When it starts (or started), as Vegvesen writes it'),
  end_time: text('When it is expected to end; null when open-ended'),
  last_update: text('When Vegvesen last changed it'),
  active: v.pipe(v.boolean(), v.description('In force now')),
  status: v.pipe(
    v.picklist(['active', 'planned', 'suspended']),
    v.description('active (in force now), planned (yet to start) or suspended'),
  ),
})

/** The position of a situation nearest `center`: a road stretch counts as near when one of its ends or its display point is. */
function nearestPosition(center: Wgs84Point, situation: TrafficSituation): Wgs84Point | null {
  let best: { at: Wgs84Point; km: number } | null = null
  for (const at of situation.points) {
    const km = distanceKm(center, at)
    if (!best || km < best.km) best = { at, km }
  }
  return best?.at ?? null
}

/**
 * Builds `get_traffic_messages`: Statens vegvesen's traffic situations (road works, closures,
 * accidents, obstructions, …) within `radius_km` of a point, nearest first, from the DATEX II
 * snapshot the source shares between requests. Only those in force now unless
 * `include_planned`; ended ones never. It fills the places field `traffic_messages`.
 *
 * @example
 * const op = createGetTrafficMessages(createSituationFeed({ username: 'me', password: 'secret' }))
 */
export function createGetTrafficMessages(feed: SituationFeed, now: () => number = Date.now) {
  return defineOperation({
    description:
      "Statens vegvesen's traffic messages (road works, closures, accidents, obstructions, weather and driving conditions) within radius_km of a point, nearest first, from its DATEX II feed: only those in force now unless include_planned=true. Needs a DATEX username and password (ALLMENNING_VEGVESEN_DATEX_USERNAME, ALLMENNING_VEGVESEN_DATEX_PASSWORD); without them the answer is a 502 upstream_not_configured.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 20, max: 200 }),
      include_planned: v.optional(
        v.pipe(
          v.boolean(),
          v.description('Also situations yet to start (and suspended ones); only those in force now when left out'),
        ),
        false,
      ),
    },
    output: v.object({
      publication_time: text('When Vegvesen published the snapshot answered from'),
      messages: v.pipe(v.array(message), v.description('The situations, nearest first')),
    }),
    list: 'messages',
    placeField: trafficMessagesPlaceField,
    canonicalFieldAliases: { name: ['messages[].location'], timestamp: ['messages[].last_update'] },
    shapeNote:
      "data is {publication_time, messages, has_more_results}: messages is the list the public gateway's clients read, with its row fields (situation_id, type, sub_types, description, location, road, severity, lat, lon, start_time, end_time, last_update, active).",
    // The snapshot is renewed every two minutes.
    cacheTtlSeconds: 60,

    async run(params, ctx) {
      const snapshot = await feed.get(ctx.upstream(vegvesenDatex))
      const at = now()
      const center = { lat: params.lat, lon: params.lon }
      const shown = snapshot.situations
        .map((situation) => ({ situation, state: situationState(situation, at) }))
        .filter(({ state }) => state === 'active' || (params.include_planned && state !== 'ended'))
      const found = nearest(center, shown, params.radius_km, ({ situation }) => nearestPosition(center, situation))
      const messages = found.map(({ item: { situation: s, state }, distanceKm: km }) => ({
        situation_id: s.id,
        type: s.type,
        sub_types: s.subTypes,
        description: s.description,
        location: s.location,
        road: s.road,
        road_name: s.roadName,
        severity: s.severity,
        lat: s.display!.lat,
        lon: s.display!.lon,
        distance_km: km,
        start_time: s.startTime,
        end_time: s.endTime,
        last_update: s.lastUpdate,
        active: state === 'active',
        status: state as 'active' | 'planned' | 'suspended',
      }))
      return {
        data: { publication_time: snapshot.publicationTime, messages },
        rawValues: { situations_in_snapshot: snapshot.situations.length },
      }
    },
  })
}
