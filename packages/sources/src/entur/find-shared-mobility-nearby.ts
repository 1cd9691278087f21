import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { postGraphql } from '../shared/graphql-request.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { enturTurn, type EnturAccess } from './entur-calls.js'
import { enturMobility } from './entur-upstreams.js'
import { sharedMobilityPlaceField } from './place-fields.js'
import {
  FORM_FACTORS,
  readSharedMobility,
  sharedStationSchema,
  sharedVehicleSchema,
  SHARED_MOBILITY_QUERY,
} from './shared-mobility.js'

/**
 * How deep `vehicles` can be paged: Entur is asked for the nearest offset + limit + 1, and a
 * client of Entur found it answers at most 500 (`deviationist/scootless`, "hitting it exactly
 * means the list was cut short"), so every page asked for stays well below that.
 */
export const MAX_VEHICLE_DEPTH = 400

/**
 * Builds `find_shared_mobility_nearby`: shared e-scooters, bicycles, cars and mopeds free to
 * rent within `radius_m` metres of a point, and the stations (bike docks, car parks) there,
 * from Entur's Mobility v2. `vehicles` is the paged list; `stations` holds the nearest `limit`
 * stations on every page, and `stations_truncated` says when more stand within the radius.
 *
 * @example
 * const findSharedMobilityNearby = createFindSharedMobilityNearby({ budget: enturRequestBudget, clientName: undefined })
 */
export function createFindSharedMobilityNearby(access: EnturAccess) {
  return defineOperation({
    description:
      'Shared e-scooters, bicycles, cars and mopeds free to rent within radius_m METRES of a point, and the ' +
      "stations (bike docks, car parks) there with how many vehicles each has, nearest first, from Entur's " +
      "Mobility v2 (every operator's GBFS feed: Voi, Ryde, Bolt, Oslo Bysykkel, Hyre …). data.vehicles is " +
      'paged by limit and offset (offset + limit at most 400); data.stations is the nearest limit stations ' +
      'on every page, and data.stations_truncated is true when more stand within the radius.',
    parameters: {
      // A scooter is picked by the street it stands in: a cell of ~11 m.
      ...pointParameters(4),
      radius_m: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.maxValue(5000),
          v.description('Search radius in METRES (not km) around lat/lon, 1..5000; 500 when left out'),
        ),
        500,
      ),
      form_factor: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toUpperCase(),
          v.picklist(FORM_FACTORS, `must be one of ${FORM_FACTORS.join(', ')}`),
          v.description(
            `Only vehicles of this kind, and stations that have one free: ${FORM_FACTORS.join(', ')} (SCOOTER also finds SCOOTER_STANDING); every kind when left out`,
          ),
        ),
      ),
      include_reserved: v.optional(
        v.pipe(v.boolean(), v.description('Also vehicles someone has reserved (reserved: true)')),
        false,
      ),
      include_disabled: v.optional(
        v.pipe(v.boolean(), v.description('Also vehicles out of service (disabled: true)')),
        false,
      ),
    },
    limit: { default: 20, max: 200 },
    output: v.object({
      radius_m: v.pipe(v.number(), v.description('The radius searched, in metres')),
      returned: v.pipe(v.number(), v.description('Vehicles on this page')),
      vehicles: v.array(sharedVehicleSchema),
      stations: v.pipe(
        v.array(sharedStationSchema),
        v.description('The nearest limit stations, the same on every page of vehicles'),
      ),
      stations_truncated: v.pipe(
        v.boolean(),
        v.description('True when more stations than limit stand within the radius'),
      ),
    }),
    list: 'vehicles',
    placeField: sharedMobilityPlaceField,
    canonicalFieldAliases: { name: ['stations[].name'] },
    shapeNote:
      "data holds the two lists the public gateway's clients read, vehicles (id, form_factor, lat, lon, " +
      'reserved, disabled, operator, system_id, propulsion, range_m) and stations (id, name, lat, lon, ' +
      'system_id, vehicles_available); only vehicles is paged, and stations_truncated says when the ' +
      'stations were cut at limit rather than cutting them silently.',
    // Scooters are picked up and parked by the minute; Entur's feeds refresh about every 30 s.
    cacheTtlSeconds: 15,

    async run(params, ctx) {
      if (params.offset + params.limit > MAX_VEHICLE_DEPTH) {
        const problem = `must leave offset + limit at most ${MAX_VEHICLE_DEPTH}; search a smaller radius instead`
        throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: offset ${problem}`, {
          details: [{ parameter: 'offset', problem, rule: 'max_value' }],
        })
      }
      const client = ctx.upstream(enturMobility)
      const headers = await enturTurn(access, client)
      const center = { lat: params.lat, lon: params.lon }
      const { data } = await postGraphql(
        client,
        '/graphql',
        {
          query: SHARED_MOBILITY_QUERY,
          variables: {
            lat: params.lat,
            lon: params.lon,
            range: params.radius_m,
            // One more than asked for tells whether more follow.
            vehicleCount: params.offset + params.limit + 1,
            stationCount: params.limit + 1,
            formFactors: params.form_factor ? [params.form_factor] : null,
            includeReserved: params.include_reserved,
            includeDisabled: params.include_disabled,
          },
        },
        headers,
      )
      const { vehicles, stations } = readSharedMobility(client, data, center)
      const page = vehicles.slice(params.offset, params.offset + params.limit)
      return {
        data: {
          radius_m: params.radius_m,
          returned: page.length,
          vehicles: page,
          stations: stations.slice(0, params.limit),
          stations_truncated: stations.length > params.limit,
        },
        page: { hasMore: vehicles.length > params.offset + params.limit },
      }
    },
  })
}
