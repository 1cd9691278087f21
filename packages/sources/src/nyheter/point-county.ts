import * as v from 'valibot'
import { checkUpstreamShape, createTimedMemo, type UpstreamClient } from '@allmenning/core/source'
import type { Wgs84Point } from '../shared/wgs84-point.js'

/** kommuneinfo's `/punkt`: the municipality and county a point lies in (numbers as strings, as captured). */
const pointPayload = v.looseObject({
  fylkesnummer: v.nullish(v.string()),
  fylkesnavn: v.nullish(v.string()),
  kommunenummer: v.nullish(v.string()),
  kommunenavn: v.nullish(v.string()),
})

/** The county a point lies in, or null outside Norway. */
export interface PointCounty {
  county: string
  countyName: string | null
}

/**
 * Counties by point from Kartverket's kommuneinfo (`/punkt`, which answers 404 outside Norway),
 * kept a week per cell of 0.01° (about a kilometre): county borders move on New Year's Day at most.
 *
 * @example
 * const counties = createCountyLookup()
 * await counties.at(ctx.upstream(kartverketKommuneinfo), { lat: 59.91, lon: 10.75 }) // { county: '03', countyName: 'Oslo' }
 */
export function createCountyLookup() {
  const memo = createTimedMemo<{ found: PointCounty | null }>({ ttlMs: 7 * 86_400_000, errorTtlMs: 30_000, maxEntries: 5000 })
  return {
    async at(client: UpstreamClient, point: Wgs84Point): Promise<PointCounty | null> {
      const lat = point.lat.toFixed(2)
      const lon = point.lon.toFixed(2)
      const { found } = await memo.get(`${lat},${lon}`, async () => {
        const response = await client.getJson('/punkt', { query: { nord: lat, ost: lon, koordsys: 4258 }, acceptStatus: [404] })
        if (response.status === 404) return { found: null }
        const body = checkUpstreamShape(client, pointPayload, response.body, 'the municipality of the point')
        return { found: body.fylkesnummer ? { county: body.fylkesnummer.padStart(2, '0'), countyName: body.fylkesnavn ?? null } : null }
      })
      return found
    },
  }
}

/** What {@link createCountyLookup} gives. */
export type CountyLookup = ReturnType<typeof createCountyLookup>
