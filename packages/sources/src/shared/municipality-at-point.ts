import * as v from 'valibot'
import { checkUpstreamShape, createTimedMemo, type UpstreamClient } from '@allmenning/core/source'
import type { Wgs84Point } from './wgs84-point.js'

/** kommuneinfo's `/punkt`: the municipality and county a point lies in (numbers as strings, as captured). */
const pointPayload = v.looseObject({
  kommunenummer: v.string(),
  kommunenavn: v.nullish(v.string()),
  fylkesnummer: v.nullish(v.string()),
  fylkesnavn: v.nullish(v.string()),
})

/** The municipality a point lies in, and its county, as Kartverket's kommuneinfo `/punkt` names them. */
export interface MunicipalityAtPoint {
  number: string
  name: string | null
  /** The county's number, two digits (`03`). */
  county: string | null
  countyName: string | null
}

/**
 * Municipalities by point from Kartverket's kommuneinfo `/punkt` (ETRS89 degrees,
 * `koordsys=4258`), kept a day per point rounded to about 100 m; null for a point in no
 * municipality (at sea, abroad: kommuneinfo answers 404 there, or 400 for a point it cannot
 * place). What every source that needs the municipality or county of a point asks.
 *
 * @example
 * const at = createMunicipalityAtPoint()
 * await at.get(ctx.upstream(kartverketKommuneinfo), { lat: 59.91, lon: 10.75 }) // { number: '0301', name: 'Oslo', county: '03', countyName: 'Oslo' }
 */
export function createMunicipalityAtPoint() {
  const memo = createTimedMemo<MunicipalityAtPoint | null>({
    ttlMs: 24 * 3_600_000,
    errorTtlMs: 30_000,
    maxEntries: 5000,
  })
  return {
    get(client: UpstreamClient, point: Wgs84Point): Promise<MunicipalityAtPoint | null> {
      const nord = Math.round(point.lat * 1000) / 1000
      const ost = Math.round(point.lon * 1000) / 1000
      return memo.get(`${nord},${ost}`, async () => {
        const response = await client.getJson('/punkt', {
          query: { nord, ost, koordsys: 4258 },
          acceptStatus: [400, 404],
        })
        if (response.status !== 200) return null
        const found = checkUpstreamShape(client, pointPayload, response.body, 'the municipality at the point')
        return {
          number: found.kommunenummer,
          name: found.kommunenavn ?? null,
          county: found.fylkesnummer ? found.fylkesnummer.padStart(2, '0') : null,
          countyName: found.fylkesnavn ?? null,
        }
      })
    },
  }
}

/** What {@link createMunicipalityAtPoint} gives. */
export type MunicipalityAtPointLookup = ReturnType<typeof createMunicipalityAtPoint>
