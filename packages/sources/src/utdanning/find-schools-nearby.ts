import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { kartverketKommuneinfo } from '../shared/kommuneinfo.js'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import type { MunicipalityAtPointLookup } from '../shared/municipality-at-point.js'
import { schoolsPlaceField } from './place-fields.js'
import { udirNsr } from './udir-upstreams.js'
import { withFlagAliases, type ListedUnit } from './unit-payloads.js'
import type { UnitRegister } from './unit-register.js'
import { schoolRow, schoolTypeOf, toSchoolRow } from './unit-rows.js'

/** What {@link createFindSchoolsNearby} is built over. */
export interface FindSchoolsNearbyDeps {
  register: UnitRegister
  municipalityAt: MunicipalityAtPointLookup
}

const nearbyRow = v.object({ ...schoolRow.entries, distance_km: v.pipe(v.number(), v.description('Distance from the point in km')) })

/**
 * Builds `find_schools_nearby` over one source instance's register.
 *
 * @example
 * const findSchoolsNearby = createFindSchoolsNearby(deps)
 */
export function createFindSchoolsNearby(deps: FindSchoolsNearbyDeps) {
  return defineOperation({
    name: 'find_schools_nearby',
    description:
      "Schools in operation (grunnskoler and videregående) within radius_km of a point, nearest first, from Udir's school " +
      "register: the schools of the point's municipality (Kartverket names it), placed by the positions in their own records. " +
      'Those records are read in the background within the request budget and kept 30 days; schools whose position is not ' +
      'read yet cannot be placed and are counted in coordinates_pending, so a first call in a municipality may answer fewer ' +
      "schools than a call a little later. Schools across the municipality's border are not included.",
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 2, max: 20 }),
    },
    limit: { default: 100, max: 1000 },
    output: v.object({
      units: v.array(nearbyRow),
      total: v.pipe(v.number(), v.description('Schools placed within the radius, before limit and offset')),
      returned: v.pipe(v.number(), v.description('Schools on this page')),
      radius_km: v.pipe(v.number(), v.description('The radius searched')),
      coordinates_pending: v.pipe(
        v.number(),
        v.description("The municipality's schools whose position is not read yet (they may lie within the radius): ask again shortly"),
      ),
      kommunenr: v.pipe(v.nullable(v.string()), v.description("The point's municipality; null at sea or outside Norway")),
      area_name: v.pipe(v.nullable(v.string()), v.description("The municipality's name")),
    }),
    list: 'units',
    placeField: schoolsPlaceField,
    canonicalFieldAliases: { name: ['units[].Navn'], latitude: ['units[].lat'], longitude: ['units[].lon'] },
    cacheTtlSeconds: 300,

    async run(params, ctx) {
      const at = await deps.municipalityAt.get(ctx.upstream(kartverketKommuneinfo), { lat: params.lat, lon: params.lon })
      const empty = { units: [], total: 0, returned: 0, radius_km: params.radius_km, coordinates_pending: 0, area_name: null }
      if (!at) return { data: { ...empty, kommunenr: null } }
      const client = ctx.upstream(udirNsr)
      const list = await deps.register.list(client, 'nsr', { kind: 'kommune', number: at.number })
      const schools = list.units.filter((unit: ListedUnit) => {
        const flags = withFlagAliases(unit.flags)
        return unit.active && flags.ErSkole !== false && schoolTypeOf(unit.flags) !== 'annen'
      })
      await deps.register.fill(client, schools)
      const center = { lat: params.lat, lon: params.lon }
      const found = nearest(center, schools, params.radius_km, (unit) => {
        const p = deps.register.state(unit) === 'known' ? deps.register.position(unit.orgnr)?.position : undefined
        return p && p.lat !== null && p.lon !== null ? { lat: p.lat, lon: p.lon } : null
      })
      const page = found.slice(params.offset, params.offset + params.limit)
      const rows = page.map(({ item, distanceKm }) => ({ ...toSchoolRow(item, deps.register), distance_km: distanceKm }))
      return {
        data: {
          units: rows,
          total: found.length,
          returned: rows.length,
          radius_km: params.radius_km,
          coordinates_pending: schools.filter((u) => deps.register.state(u) === 'pending').length,
          kommunenr: at.number,
          area_name: at.name,
        },
        page: { hasMore: params.offset + rows.length < found.length, total: found.length },
        sourceApi: client.url(`/enheter/kommune/${at.number}`),
      }
    },
    entities: (data) => data.units.map((u) => ({ type: 'school', id: u.organization_id, name: u.Navn })),
  })
}
