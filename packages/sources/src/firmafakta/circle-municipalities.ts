import { createTimedMemo, type OperationContext } from '@allmenning/core/source'
import { kartverketAdresser } from '../geonorge/kartverket-upstreams.js'
import { municipalityOfPoint, type PointMunicipality } from '../geonorge/municipality-of-point.js'
import { mapConcurrently } from '../shared/map-concurrently.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { roundCoordinate, type Wgs84Point } from '../shared/wgs84-point.js'

/** Points sampled on the circle's rim (every 45°), and on a ring at half the radius for wide circles. */
export const RING_SAMPLES = 8

/** From this radius (km) on, a second ring at half the radius is sampled too: 17 points in all. */
export const INNER_RING_FROM_KM = 5

/** Most sample lookups in flight at once. */
const CONCURRENCY = 4

const KM_PER_DEGREE = 111.32
const DAY_MS = 86_400_000

/** A municipality the circle touches, and how many of its sample points fell in it. */
export interface CircleMunicipality {
  /** Four digits (kommunenummer). */
  number: string
  name: string | null
  samples: number
}

/** The municipalities of a circle, the one of its centre first, then by how many samples fell in each. */
export interface CircleMunicipalities {
  municipalities: CircleMunicipality[]
  /** Points sampled. */
  samples: number
  /** Calls made to Kartverket (memory answered the rest). */
  calls: number
}

/**
 * The points sampled to find which municipalities a circle touches: its centre, eight points
 * on its rim, and for a radius of 5 km or more eight on a ring at half the radius. Ring points
 * are rounded (to 0.001°, about 100 m, below 5 km; to 0.01°, about 1 km, from 5 km on), so that
 * nearby circles share their samples and their cached answers; a sample only has to fall in
 * the right municipality, not on the rim exactly.
 *
 * @example
 * circleSamples({ lat: 59.913, lon: 10.739 }, 1).length // 9
 */
export function circleSamples(center: Wgs84Point, radiusKm: number): Wgs84Point[] {
  const points: Wgs84Point[] = [center]
  const decimals = radiusKm < INNER_RING_FROM_KM ? 3 : 2
  const ring = (distanceKm: number) => {
    for (let i = 0; i < RING_SAMPLES; i++) {
      const bearing = (i * 2 * Math.PI) / RING_SAMPLES
      const lat = center.lat + (distanceKm * Math.cos(bearing)) / KM_PER_DEGREE
      const lon =
        center.lon + (distanceKm * Math.sin(bearing)) / (KM_PER_DEGREE * Math.cos((center.lat * Math.PI) / 180))
      points.push({ lat: roundCoordinate(lat, decimals), lon: roundCoordinate(lon, decimals) })
    }
  }
  ring(radiusKm)
  if (radiusKm >= INNER_RING_FROM_KM) ring(radiusKm / 2)
  const seen = new Set<string>()
  return points.filter((point) => {
    const key = `${point.lat},${point.lon}`
    return seen.has(key) ? false : (seen.add(key), true)
  })
}

/** Finds the municipalities a circle touches. See {@link createCircleMunicipalities}. */
export interface CircleMunicipalityLookup {
  of(ctx: OperationContext, center: Wgs84Point, radiusKm: number): Promise<CircleMunicipalities>
}

/**
 * Tells which municipalities a circle touches by sampling it ({@link circleSamples}) and asking
 * Kartverket's address API for the municipality of the nearest address to each sample
 * (`municipalityOfPoint`, one `/punktsok` call; Norway offers no keyless polygon search). A
 * sample's answer is kept for a day, so a circle near an earlier one costs few calls or none.
 * A municipality lying wholly between the samples is missed: the operation says so. A failed
 * lookup fails the whole (a 502 naming Kartverket): without municipalities there is nothing to
 * search.
 *
 * @example
 * const lookup = createCircleMunicipalities(createRequestBudget({ requests: 20, perMs: 1000, maxWaitMs: 1500 }))
 * const { municipalities } = await lookup.of(ctx, { lat: 59.913, lon: 10.739 }, 1) // [{ number: '0301', name: 'OSLO', samples: 9 }]
 */
export function createCircleMunicipalities(budget: RequestBudget, now?: () => number): CircleMunicipalityLookup {
  const memo = createTimedMemo<PointMunicipality | null>({ ttlMs: DAY_MS, maxEntries: 20_000, ...(now ? { now } : {}) })
  return {
    async of(ctx, center, radiusKm) {
      const samples = circleSamples(center, radiusKm)
      let calls = 0
      const found = await mapConcurrently(samples, CONCURRENCY, (point) =>
        memo.get(`${point.lat},${point.lon}`, async () => {
          await budget.take(kartverketAdresser)
          calls++
          return municipalityOfPoint(ctx, point)
        }),
      )
      const tally = new Map<string, CircleMunicipality>()
      for (const municipality of found) {
        if (!municipality) continue
        const known = tally.get(municipality.number)
        if (known) known.samples++
        else tally.set(municipality.number, { number: municipality.number, name: municipality.name, samples: 1 })
      }
      const centre = found[0]?.number
      // sort() is stable: equal counts keep the order the samples found them in.
      const first = (m: CircleMunicipality) => Number(m.number === centre)
      const municipalities = [...tally.values()].sort((a, b) => first(b) - first(a) || b.samples - a.samples)
      return { municipalities, samples: samples.length, calls }
    },
  }
}
