import { checkUpstreamShape, type QueryValues, type UpstreamClient } from '@allmenning/core/source'
import { placeAreas, toPlace } from './place-mapping.js'
import { placePage, pointPlacePage } from './upstream-shapes.js'
import type { UpstreamPage } from '../shared/upstream-pages.js'

/** Paths of the place-name API. */
export const PLACE_PATHS = { places: '/sted', point: '/punkt' } as const

/** The place-name API numbers its pages from 1 and serves at most 500 of them. */
export const PLACE_PAGING = { first: 1, last: 500 } as const

// utkoordsys=4258 (ETRS89) is the CRS Kartverket documents for this API; in Norway it lies
// within a metre of WGS84, so its degrees are passed on as WGS84.
const GEOGRAPHIC = 4258

/**
 * One page of `/sted`: places with all their names, municipalities and counties.
 *
 * @example
 * await fetchPlacePage(client, { sok: 'Heggmoen' }, 1, 25)
 */
export async function fetchPlacePage(client: UpstreamClient, query: QueryValues, page: number, size: number) {
  const response = await client.getJson(PLACE_PATHS.places, {
    query: { ...query, utkoordsys: GEOGRAPHIC, treffPerSide: size, side: page },
  })
  const body = checkUpstreamShape(client, placePage, response.body, 'the places')
  const items = body.navn.flatMap((row) => {
    const place = toPlace(client, row)
    return place ? [{ ...place, ...placeAreas(row) }] : []
  })
  return { items, total: body.metadata?.totaltAntallTreff ?? undefined } satisfies UpstreamPage<unknown>
}

/**
 * One page of `/punkt`: the places near a point, with their distance in metres.
 *
 * @example
 * await fetchPointPlacePage(client, { nord: 59.9112, ost: 10.7339, radius: 1000 }, 1, 25)
 */
export async function fetchPointPlacePage(client: UpstreamClient, query: QueryValues, page: number, size: number) {
  const response = await client.getJson(PLACE_PATHS.point, {
    query: { ...query, koordsys: GEOGRAPHIC, utkoordsys: GEOGRAPHIC, treffPerSide: size, side: page },
  })
  const body = checkUpstreamShape(client, pointPlacePage, response.body, 'the places near the point')
  const items = body.navn.flatMap((row) => {
    const place = toPlace(client, row)
    return place ? [{ ...place, distance_m: row.meterFraPunkt ?? null }] : []
  })
  return { items, total: body.metadata?.totaltAntallTreff ?? undefined } satisfies UpstreamPage<unknown>
}
