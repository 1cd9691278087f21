import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { kartverketKommuneinfo } from '../shared/kommuneinfo.js'
import { nearest } from '../shared/nearest.js'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import type { MunicipalityAtPointLookup } from '../shared/municipality-at-point.js'
import { schoolsPlaceField } from './place-fields.js'
import { udirNsr } from './udir-upstreams.js'
import type { ListedUnit } from './unit-payloads.js'
import { loadedDataset } from './loaded-dataset.js'
import { udirEnheter, unitsInCells } from './dataset-units.js'
import { cellsAround } from '../shared/grid-cell.js'
import { isSchool } from './unit-kinds.js'
import type { UnitRegister } from './unit-register.js'
import { schoolRow, schoolTypeOf, toSchoolRow, type PositionSource } from './unit-rows.js'

/** What {@link createFindSchoolsNearby} is built over. */
export interface FindSchoolsNearbyDeps {
  register: UnitRegister
  municipalityAt: MunicipalityAtPointLookup
}

const nearbyRow = v.object({
  ...schoolRow.entries,
  distance_km: v.pipe(v.number(), v.description('Distance from the point in km')),
})

/**
 * Builds `find_schools_nearby` over one source instance's register.
 *
 * @example
 * const findSchoolsNearby = createFindSchoolsNearby(deps)
 */
export function createFindSchoolsNearby(deps: FindSchoolsNearbyDeps) {
  return defineOperation({
    description:
      "Schools in operation (grunnskoler and videregående) within radius_km of a point, nearest first, from Udir's school " +
      'register, placed by the positions in their own records. With the udir_enheter dataset loaded (positions_from ' +
      '"dataset"), the schools are read from it by grid cell, across municipal borders, with no call to Udir. Without it, ' +
      "the schools of the point's municipality (Kartverket names it) are placed by records read in the background within " +
      'the request budget and kept 30 days; schools whose position is not read yet are counted in coordinates_pending, so ' +
      "a first call may answer fewer schools than a call a little later, and schools across the municipality's border are " +
      'not included.',
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
        v.description(
          "The municipality's schools whose position is not read yet (they may lie within the radius): ask again shortly",
        ),
      ),
      positions_from: v.pipe(
        v.picklist(['dataset', 'requests']),
        v.description(
          'dataset: read from the udir_enheter dataset by grid cell, schools across municipal borders included, no call to ' +
            "Udir; requests: it is not loaded, so the schools of the point's municipality, placed by records read at request time",
        ),
      ),
      kommunenr: v.pipe(
        v.nullable(v.string()),
        v.description(
          "The point's municipality, whose schools were searched (positions_from requests); null at sea, or with the dataset",
        ),
      ),
      area_name: v.pipe(v.nullable(v.string()), v.description("The municipality's name (positions_from requests)")),
    }),
    list: 'units',
    placeField: schoolsPlaceField,
    canonicalFieldAliases: { name: ['units[].Navn'], latitude: ['units[].lat'], longitude: ['units[].lon'] },
    cacheTtlSeconds: 300,
    datasets: [udirEnheter],

    async run(params, ctx) {
      const inOperation = (unit: ListedUnit) =>
        unit.active && isSchool(unit.flags) && schoolTypeOf(unit.flags) !== 'annen'
      const center = { lat: params.lat, lon: params.lon }
      const placed = (positions: PositionSource) => (unit: ListedUnit) => {
        const p = positions.state(unit) === 'known' ? positions.position(unit.orgnr)?.position : undefined
        return p && p.lat !== null && p.lon !== null ? { lat: p.lat, lon: p.lon } : null
      }
      type Municipality = { number: string; name: string | null } | null
      const answer = (
        found: { item: ListedUnit; distanceKm: number }[],
        positions: PositionSource,
        pending: number,
        from: 'dataset' | 'requests',
        at: Municipality,
      ) => {
        const page = found.slice(params.offset, params.offset + params.limit)
        const rows = page.map(({ item, distanceKm }) => ({ ...toSchoolRow(item, positions), distance_km: distanceKm }))
        return {
          data: {
            units: rows,
            total: found.length,
            returned: rows.length,
            radius_km: params.radius_km,
            coordinates_pending: pending,
            positions_from: from,
            kommunenr: at?.number ?? null,
            area_name: at?.name ?? null,
          },
          page: { hasMore: params.offset + rows.length < found.length, total: found.length },
        }
      }
      const reader = loadedDataset(ctx)
      if (reader) {
        // The cells the circle's box touches: one indexed lookup, across municipal borders too.
        const { units, positions } = await unitsInCells(
          reader,
          'nsr',
          cellsAround(params.lat, params.lon, params.radius_km),
        )
        // No municipality is asked for: the dataset places the schools by themselves, and the answer needs no other upstream.
        return answer(
          nearest(center, units.filter(inOperation), params.radius_km, placed(positions)),
          positions,
          0,
          'dataset',
          null,
        )
      }
      const at = await deps.municipalityAt.get(ctx.upstream(kartverketKommuneinfo), {
        lat: params.lat,
        lon: params.lon,
      })
      if (!at) return answer([], deps.register, 0, 'requests', null)
      const client = ctx.upstream(udirNsr)
      const list = await deps.register.list(client, 'nsr', { kind: 'kommune', number: at.number })
      const schools = list.units.filter(inOperation)
      await deps.register.fill(client, schools)
      const found = nearest(center, schools, params.radius_km, placed(deps.register))
      const pending = schools.filter((u) => deps.register.state(u) === 'pending').length
      return {
        ...answer(found, deps.register, pending, 'requests', at),
        sourceApi: client.url(`/enheter/kommune/${at.number}`),
      }
    },
    entities: (data) => data.units.map((u) => ({ type: 'school', id: u.organization_id, name: u.Navn })),
  })
}
