import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { kystdatahusetApi } from './kystdatahuset-upstream.js'
import { LOCATION_REGISTER_PATH, type LocationRegisterCache } from './location-register.js'
import { portsPlaceField } from './place-fields.js'
import { portSystemTypes, portTypeName } from './port-types.js'

const portSchema = v.object({
  port_id: v.pipe(v.number(), v.description("Kystverket's location id (locationid); unique, unlike kode")),
  navn: v.pipe(v.nullable(v.string()), v.description('Name of the quay, port or anchorage (locationnamenor)')),
  kode: v.pipe(
    v.nullable(v.string()),
    v.description('LOCODE-like code of the port it belongs to, e.g. NOOSL; shared by many quays'),
  ),
  type: v.pipe(
    v.string(),
    v.description(
      'Kind of location in Norwegian: Kai, Ferjekai, Havneanlegg, Havn, Ankringsplass, Losbordingsfelt, Posisjon til sjøs',
    ),
  ),
  system_type: v.pipe(
    v.string(),
    v.description(
      "The register's own kind code: QUAY, FERRY_QUAY, PORT_FACILITY, HARBOUR, ANCHORAGE, PILOT_BOARDING, LOCATION_AT_SEA",
    ),
  ),
  lat: v.pipe(v.number(), v.description('WGS84 latitude')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude')),
  avstand_km: v.pipe(v.number(), v.description('Distance from lat/lon in kilometres')),
})

/**
 * One port as `find_ports_nearby` returns it.
 *
 * @example
 * const ferryQuays = (ports: Port[]) => ports.filter((port) => port.system_type === 'FERRY_QUAY')
 */
export type Port = v.InferOutput<typeof portSchema>

/**
 * Builds `find_ports_nearby` over the memoized location register of one source instance.
 *
 * @example
 * const findPortsNearby = createFindPortsNearby(createLocationRegister())
 */
export function createFindPortsNearby(register: LocationRegisterCache) {
  return defineOperation({
    description:
      "Quays, ferry quays, port facilities, harbours and anchorages within radius_km of a point, nearest first, from Kystverket's location register. The register is fetched once a day and filtered here, so Kystdatahuset is not asked per call.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 10, max: 200 }),
      type: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toUpperCase(),
          v.picklist(portSystemTypes),
          v.description('Only one kind of location, by its register code, e.g. FERRY_QUAY'),
        ),
      ),
    },
    output: v.object({
      havner: v.array(portSchema),
      radius_km: v.pipe(v.number(), v.description('The radius searched, in kilometres')),
    }),
    list: 'havner',
    placeField: portsPlaceField,
    canonicalFieldAliases: { name: ['havner[].navn'] },
    shapeNote:
      'data is {havner, radius_km, has_more_results} with the row fields of the public gateway (port_id, navn, kode, type in Norwegian, lat, lon, avstand_km), so its clients work unchanged. ' +
      "kommune and fylke, which the public gateway adds, are not in Kystverket's register and are left out rather than sent empty; system_type keeps the register's own code beside type.",
    cacheTtlSeconds: 3600,

    async run(params, ctx) {
      const client = ctx.upstream(kystdatahusetApi)
      const { locations, skipped } = await register.get(client)
      const wanted = params.type
      const candidates = wanted === undefined ? locations : locations.filter((l) => l.systemName === wanted)
      const found = nearest({ lat: params.lat, lon: params.lon }, candidates, params.radius_km, (l) => l)
      const havner = found.map(({ item, distanceKm }) => ({
        port_id: item.id,
        navn: item.name,
        kode: item.code,
        type: portTypeName(item.systemName),
        system_type: item.systemName,
        lat: item.lat,
        lon: item.lon,
        avstand_km: distanceKm,
      }))
      return {
        data: { havner, radius_km: params.radius_km },
        sourceApi: client.url(LOCATION_REGISTER_PATH),
        rawValues: { register_locations: locations.length, register_locations_without_position: skipped },
      }
    },
  })
}
