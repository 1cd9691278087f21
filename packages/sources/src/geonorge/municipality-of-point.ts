import * as v from 'valibot'
import { checkUpstreamShape, type OperationContext } from '@allmenning/core/source'
import { kartverketAdresser } from './kartverket-upstreams.js'

/** What is read of Kartverket's point search: the municipality of the nearest address. */
const nearestAddress = v.looseObject({
  adresser: v.array(v.looseObject({ kommunenummer: v.nullish(v.string()), kommunenavn: v.nullish(v.string()) })),
})

/** How far from the point an address may be and still say which municipality the point is in. */
export const MUNICIPALITY_SEARCH_RADIUS_M = 5000

/** The municipality a point lies in, as the nearest address tells it. */
export interface PointMunicipality {
  /** Four digits (kommunenummer); its first two are the county's number. */
  number: string
  name: string | null
}

/**
 * The municipality of the address nearest a WGS84 point in Kartverket's register, within
 * 5 km; null where there is none (at sea, abroad). Norway publishes no keyless point-in-polygon
 * service for municipalities, and the nearest address is right everywhere but within metres of
 * a border. The operation must list `kartverketAdresser` among its source's upstreams.
 *
 * @example
 * const municipality = await municipalityOfPoint(ctx, { lat: 60.3913, lon: 5.3221 }) // { number: '4601', name: 'BERGEN' }
 */
export async function municipalityOfPoint(
  ctx: OperationContext,
  point: { lat: number; lon: number },
): Promise<PointMunicipality | null> {
  const kartverket = ctx.upstream(kartverketAdresser)
  const found = await kartverket.getJson('/punktsok', {
    query: {
      lat: point.lat,
      lon: point.lon,
      radius: MUNICIPALITY_SEARCH_RADIUS_M,
      koordsys: 4258,
      treffPerSide: 1,
      side: 0,
    },
  })
  const nearest = checkUpstreamShape(kartverket, nearestAddress, found.body, 'the nearest address').adresser[0]
  return nearest?.kommunenummer ? { number: nearest.kommunenummer, name: nearest.kommunenavn ?? null } : null
}
