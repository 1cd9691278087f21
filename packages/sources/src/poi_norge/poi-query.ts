/**
 * The OpenStreetMap keys whose values are treated as POI categories (`amenity=restaurant`,
 * `shop=bakery`, ...), in the order a POI's type is chosen when it carries several.
 */
export const POI_TYPES = [
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'historic',
  'office',
  'craft',
  'healthcare',
  'emergency',
  'sport',
  'public_transport',
] as const

export type PoiType = (typeof POI_TYPES)[number]

/** Overpass's own time limit for one query, in seconds. */
const QUERY_TIMEOUT_S = 20

/** Most elements one query returns; more within the circle means the answer is truncated. */
export const MAX_ELEMENTS = 1000

/** What to ask Overpass for. */
export interface PoiQuery {
  lat: number
  lon: number
  radiusM: number
  type?: PoiType | undefined
  /** An OSM value such as `restaurant`; checked against [a-z0-9_] before it gets here. */
  category?: string | undefined
}

/**
 * The Overpass QL for POIs around a point. Without a category only named POIs are asked for,
 * since a city centre holds thousands of unnamed benches and bins. The values are checked by
 * the operation's parameter schemas, so nothing a client sends can change the query's syntax.
 *
 * @example
 * overpassQuery({ lat: 59.91, lon: 10.75, radiusM: 1000, category: 'restaurant' })
 */
export function overpassQuery(q: PoiQuery): string {
  const keys = q.type ? [q.type] : POI_TYPES
  const keyPattern = `^(${keys.join('|')})$`
  const filter =
    q.category !== undefined
      ? q.type
        ? `["${q.type}"="${q.category}"]`
        : `[~"${keyPattern}"~"^${q.category}$"]`
      : q.type
        ? `["${q.type}"]["name"]`
        : `[~"${keyPattern}"~"."]["name"]`
  return `[out:json][timeout:${QUERY_TIMEOUT_S}];nwr(around:${q.radiusM},${q.lat},${q.lon})${filter};out center qt ${MAX_ELEMENTS};`
}
