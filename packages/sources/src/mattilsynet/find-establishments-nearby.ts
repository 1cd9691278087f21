import * as v from 'valibot'
import { defineOperation, type DatasetCondition } from '@allmenning/core/source'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { adressepunkter } from './datasets/adressepunkter.js'
import { smilefjes } from './datasets/smilefjes.js'
import {
  establishmentRows,
  establishmentSchema,
  type AddressPoint,
  type EstablishmentRecord,
} from './establishment-rows.js'
import { checkGradeBounds, gradeCondition, gradeParameter, sinceCondition, sinceParameter } from './filters.js'
import { cellsAround } from '../shared/grid-cell.js'
import { distanceKm } from '../shared/wgs84-point.js'
import { foodInspectionsPlaceField } from './place-fields.js'
import { placementNote } from './search-establishments.js'

/** What {@link createFindEstablishmentsNearby} needs besides the datasets. */
export interface FindEstablishmentsNearbyDeps {
  now: () => Date
}

/**
 * Builds `find_establishments_nearby`: the establishments placed within `radius_km` of a point,
 * nearest first, each with its latest grade. It reads the placed addresses by grid cell (one
 * lookup), then their establishments (one more), then the page's history (one more).
 *
 * @example
 * // GET /api/v1/kilder/mattilsynet/find_establishments_nearby?lat=59.91&lon=10.75&radius_km=1
 */
export function createFindEstablishmentsNearby(deps: FindEstablishmentsNearbyDeps) {
  return defineOperation({
    description:
      "Places serving food within radius_km of a WGS84 point, nearest first, with the smiley grade of Mattilsynet's latest " +
      "inspection (0–1 smiling, 2 straight, 3 sad), placed at their addresses through Kartverket's address register. Needs " +
      'both datasets: mattilsynet_smilefjes and the placed addresses, mattilsynet_adressepunkter (see docs/datasets.md).',
    parameters: {
      ...pointParameters(4),
      radius_km: radiusKmParameter({ fallback: 1, max: 10 }),
      min_karakter: gradeParameter('lowest'),
      max_karakter: gradeParameter('highest'),
      since: sinceParameter,
    },
    limit: { default: 100, max: 1000 },
    output: v.object({
      establishments: v.array(
        v.object({
          ...establishmentSchema.entries,
          distance_km: v.pipe(v.number(), v.description('Distance from the point, km')),
        }),
      ),
      total: v.pipe(v.number(), v.description('Establishments within the radius, before limit and offset')),
      note: v.string(),
    }),
    list: 'establishments',
    placeField: foodInspectionsPlaceField,
    canonicalFieldAliases: {
      name: ['establishments[].navn'],
      latitude: ['establishments[].lat'],
      longitude: ['establishments[].lon'],
      timestamp: ['establishments[].dato'],
    },
    datasets: [smilefjes, adressepunkter],
    cacheTtlSeconds: 6 * 3600,

    async run(params, ctx) {
      checkGradeBounds(params.min_karakter, params.max_karakter)
      const register = ctx.dataset(smilefjes)
      const points = ctx.dataset(adressepunkter)
      const cells = cellsAround(params.lat, params.lon, params.radius_km)
      const candidates = await points.select<AddressPoint & { celle: string }>('adressepunkter', {
        columns: ['adresse_key', 'status', 'lat', 'lon', 'kommunenummer', 'kommunenavn'],
        where: { celle: { in: cells }, status: 'placed' },
      })
      const near = new Map<string, { point: AddressPoint; km: number }>()
      for (const point of candidates) {
        const km = distanceKm(params, { lat: point.lat!, lon: point.lon! })
        if (km <= params.radius_km) near.set(point.adresse_key, { point, km })
      }
      const conditions: Record<string, DatasetCondition> = {}
      const grades = gradeCondition(params.min_karakter, params.max_karakter)
      if (grades !== undefined) conditions.karakter = grades
      const dates = sinceCondition(params.since, deps.now())
      if (dates !== undefined) conditions.dato = dates
      const found: EstablishmentRecord[] = []
      const keys = [...near.keys()]
      for (let i = 0; i < keys.length; i += 5000) {
        found.push(
          ...(await register.select<EstablishmentRecord>('tilsynsobjekter', {
            where: { ...conditions, adresse_key: { in: keys.slice(i, i + 5000) } },
          })),
        )
      }
      const km = (e: EstablishmentRecord) => near.get(e.adresse_key!)!.km
      found.sort(
        (a, b) =>
          km(a) - km(b) ||
          (a.dato < b.dato ? 1 : a.dato > b.dato ? -1 : 0) ||
          a.tilsynsobjektid.localeCompare(b.tilsynsobjektid),
      )
      const page = found.slice(params.offset, params.offset + params.limit)
      const rows = await establishmentRows(
        register,
        points,
        page,
        new Map([...near].map(([key, { point }]) => [key, point])),
      )
      return {
        data: {
          establishments: rows.map((row, i) => ({ ...row, distance_km: Math.round(km(page[i]!) * 1000) / 1000 })),
          total: found.length,
          note: placementNote(true),
        },
        page: { hasMore: params.offset + page.length < found.length, total: found.length },
      }
    },
  })
}
