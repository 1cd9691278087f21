import * as v from 'valibot'
import { checkUpstreamShape, createTimedMemo, listSizeCheck, type UpstreamClient } from '@allmenning/core/source'
import { kystdatahusetApi } from './kystdatahuset-upstream.js'
import { isKnownPosition } from '../shared/nearest.js'

/** The register of quays, ports and anchorages as GeoJSON (about 4 100 points). */
export const LOCATION_REGISTER_PATH = '/api/location/norway/all/geojson'

/** One location of the register, as this source keeps it. */
export interface RegisterLocation {
  id: number
  code: string | null
  name: string | null
  systemName: string
  lat: number
  lon: number
}

/** What the register held at the last load. */
export interface LocationRegister {
  locations: RegisterLocation[]
  /** Features left out: no geometry, or the (0, 0) the register stores for an unknown position. */
  skipped: number
}

const text = v.optional(v.nullable(v.string()), null)
const featureCollection = v.looseObject({
  type: v.literal('FeatureCollection'),
  features: v.array(
    v.looseObject({
      geometry: v.nullish(v.looseObject({ type: v.string(), coordinates: v.optional(v.unknown()) })),
      properties: v.looseObject({
        // Numbers in every answer seen; a numeric string is read too, so a serializer change does not sink the list.
        locationid: v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))]),
        locationcode: text,
        locationnamenor: text,
        systemname: v.string(),
      }),
    }),
  ),
})

function pointOf(
  geometry: { type: string; coordinates?: unknown } | null | undefined,
): { lat: number; lon: number } | null {
  if (geometry?.type !== 'Point' || !Array.isArray(geometry.coordinates)) return null
  const [lon, lat] = geometry.coordinates as unknown[]
  const position = { lat: lat as number, lon: lon as number }
  return isKnownPosition(position) ? position : null
}

/**
 * Reads the register's GeoJSON: points only, (0, 0) and missing geometries left out.
 *
 * @example
 * parseLocationRegister(JSON.parse(body), client).locations.length
 */
export function parseLocationRegister(body: unknown, upstream: { id: string; name: string }): LocationRegister {
  const collection = checkUpstreamShape(upstream, featureCollection, body, 'the location register')
  const locations: RegisterLocation[] = []
  let skipped = 0
  for (const feature of collection.features) {
    const at = pointOf(feature.geometry)
    if (!at) {
      skipped++
      continue
    }
    const p = feature.properties
    locations.push({
      id: p.locationid,
      code: p.locationcode?.trim() || null,
      name: p.locationnamenor?.trim() || null,
      systemName: p.systemname,
      ...at,
    })
  }
  return { locations, skipped }
}

/** Kystverket says the register "changes rarely": one load a day, an old copy served for a week if reloads fail. */
const DAY_MS = 86_400_000

/**
 * The location register, loaded once and shared by every call of one source instance.
 *
 * @example
 * const register = createLocationRegister()
 * const { locations } = await register.get(ctx.upstream(kystdatahusetApi))
 */
export function createLocationRegister() {
  const memo = createTimedMemo<LocationRegister>({
    ttlMs: DAY_MS,
    staleMs: 7 * DAY_MS,
    errorTtlMs: 60_000,
    maxEntries: 1,
    // The register has about 4 100 points. An empty one, or one that lost more than half of the
    // last good one, was cut short (Kystdatahuset reports timeouts inside 200 answers) and
    // would leave every coast without ports for a day.
    plausible: listSizeCheck({
      upstream: kystdatahusetApi,
      what: 'location register',
      count: (register) => register.locations.length,
    }),
  })
  return {
    get(client: UpstreamClient): Promise<LocationRegister> {
      return memo.get('norway', async () =>
        parseLocationRegister((await client.getJson(LOCATION_REGISTER_PATH)).body, client),
      )
    },
  }
}

/** The memoized register of one `kystdatahuset()` source. */
export type LocationRegisterCache = ReturnType<typeof createLocationRegister>
