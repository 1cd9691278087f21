import * as v from 'valibot'
import { defineOperation, upstreamNotConfigured, UpstreamError } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { parseChargerStations } from './charger-stations.js'
import { NOBIL_KEY_VARIABLE, nobilApi } from './nobil-upstream.js'
import { chargingStationsPlaceField } from './place-fields.js'

export const NOBIL_SEARCH_PATH = '/search.php'

/** Stations asked of NOBIL per search; the nearest are paged here with limit and offset. */
const SEARCH_LIMIT = 500

const text = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const stationSchema = v.object({
  id: v.pipe(v.string(), v.description("NOBIL's international station id, e.g. NOR_00041")),
  name: text('Name of the station'),
  address: text('Street and house number'),
  postal_code: text('Postal code'),
  city: text('Postal town'),
  municipality: text('Municipality'),
  county: text('County'),
  owner: text('Owner of the station'),
  lat: v.pipe(v.number(), v.description('WGS84 latitude')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude')),
  charging_points: v.pipe(v.nullable(v.number()), v.description('Number of charging points')),
  available_charging_points: v.pipe(
    v.nullable(v.number()),
    v.description('Charging points free now, where the operator reports it live'),
  ),
  availability: text('Who may use it, e.g. Public'),
  connectors: v.pipe(
    v.array(
      v.object({
        number: v.pipe(v.string(), v.description('Connector number at the station')),
        type: text('Connector type, e.g. Type 2, CCS/Combo'),
        capacity: text('Charging capacity as NOBIL words it, e.g. 22 kW - 400V 3-phase max 32A'),
        status: text('Live status code where reported, e.g. AVAILABLE, OCCUPIED'),
      }),
    ),
    v.description('The connectors, one per charging point'),
  ),
  updated: text('When NOBIL last updated the station'),
  distance_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
})

/**
 * Builds `find_charging_stations` with the deployment's NOBIL key (or none).
 *
 * @example
 * const findChargingStations = createFindChargingStations(process.env.ALLMENNING_NOBIL_API_KEY)
 */
export function createFindChargingStations(apiKey: string | undefined) {
  return defineOperation({
    description:
      "Public charging stations for electric vehicles within radius_km of a point, nearest first, from Enova's NOBIL register, with connectors and live availability where the operator reports it. NOBIL is asked for at most 500 stations; when it gives that many, _meta.capped says so. Needs a NOBIL API key (ALLMENNING_NOBIL_API_KEY); without one the answer is a 502 upstream_not_configured.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 5, max: 50 }),
    },
    output: v.array(stationSchema),
    placeField: chargingStationsPlaceField,
    canonicalFieldAliases: { name: ['[].name'], timestamp: ['[].updated'] },
    shapeNote:
      'data is a bare list, as the public gateway answers, and each row has the fields its clients read (id, name, lat, lon, charging_points); address, connectors, live availability and distance_km stand beside them.',
    cacheTtlSeconds: 300,

    async run(params, ctx) {
      const client = ctx.upstream(nobilApi)
      if (!apiKey) throw upstreamNotConfigured(client, NOBIL_KEY_VARIABLE)
      const res = await client.getJson(NOBIL_SEARCH_PATH, {
        query: {
          apikey: apiKey,
          apiversion: 3,
          action: 'search',
          type: 'near',
          lat: params.lat,
          long: params.lon,
          distance: Math.round(params.radius_km * 1000),
          limit: SEARCH_LIMIT,
          format: 'json',
        },
        acceptStatus: [401, 403],
        redact: [apiKey],
      })
      if (res.status === 401 || res.status === 403) {
        throw new UpstreamError(
          client,
          'status',
          `refused the configured API key (HTTP ${res.status}); check ${NOBIL_KEY_VARIABLE}`,
          res.status,
        )
      }
      const stations = parseChargerStations(res.body, client)
      // NOBIL searches by its own notion of "near"; the radius and order are enforced here.
      const found = nearest({ lat: params.lat, lon: params.lon }, stations, params.radius_km, (s) => s.position)
      const data = found.map(({ item, distanceKm }) => ({
        id: item.id,
        name: item.name,
        address: item.address,
        postal_code: item.postalCode,
        city: item.city,
        municipality: item.municipality,
        county: item.county,
        owner: item.owner,
        lat: item.position!.lat,
        lon: item.position!.lon,
        charging_points: item.chargingPoints,
        available_charging_points: item.availableChargingPoints,
        availability: item.availability,
        connectors: item.connectors,
        updated: item.updated,
        distance_km: distanceKm,
      }))
      const rawValues: Record<string, unknown> = { stations_from_nobil: stations.length }
      if (stations.length < SEARCH_LIMIT) return { data, rawValues }
      rawValues['nobil_search_limit_reached'] = SEARCH_LIMIT
      // NOBIL gave as many as it was asked for, so the circle may hold more: a smaller radius_km finds them.
      const reason = `NOBIL answers at most ${SEARCH_LIMIT} stations per search; there may be more within radius_km`
      return { data, rawValues, capped: { cap: SEARCH_LIMIT, reason } }
    },
  })
}
