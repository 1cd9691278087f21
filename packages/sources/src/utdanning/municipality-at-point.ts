import * as v from 'valibot'
import { checkUpstreamShape, createTimedMemo, type UpstreamClient } from '@allmenning/core/source'

const pointPayload = v.looseObject({ kommunenummer: v.string(), kommunenavn: v.nullish(v.string()), fylkesnummer: v.nullish(v.string()) })

/** The municipality a point lies in, as Kartverket's kommuneinfo `/punkt` names it. */
export interface MunicipalityAtPoint {
  number: string
  name: string | null
}

/**
 * Municipalities by point from kommuneinfo's `/punkt` (ETRS89 degrees, `koordsys=4258`), kept
 * a day per point rounded to about 100 m; null for a point in no municipality (at sea, abroad:
 * kommuneinfo answers 404 there, or 400 for a point it cannot place).
 *
 * @example
 * const at = createMunicipalityAtPoint()
 * await at.get(ctx.upstream(kartverketKommuneinfo), 59.91, 10.75) // { number: '0301', name: 'Oslo' }
 */
export function createMunicipalityAtPoint() {
  const memo = createTimedMemo<MunicipalityAtPoint | null>({ ttlMs: 24 * 3_600_000, errorTtlMs: 30_000, maxEntries: 2000 })
  return {
    get(client: UpstreamClient, lat: number, lon: number): Promise<MunicipalityAtPoint | null> {
      const nord = Math.round(lat * 1000) / 1000
      const ost = Math.round(lon * 1000) / 1000
      return memo.get(`${nord},${ost}`, async () => {
        const response = await client.getJson('/punkt', { query: { nord, ost, koordsys: 4258 }, acceptStatus: [400, 404] })
        if (response.status !== 200) return null
        const found = checkUpstreamShape(client, pointPayload, response.body, 'the municipality at the point')
        return { number: found.kommunenummer, name: found.kommunenavn ?? null }
      })
    },
  }
}

/** What {@link createMunicipalityAtPoint} gives. */
export type MunicipalityAtPointLookup = ReturnType<typeof createMunicipalityAtPoint>
