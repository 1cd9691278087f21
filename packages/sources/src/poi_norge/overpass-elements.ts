import * as v from 'valibot'
import { checkUpstreamShape, UpstreamError } from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'
import { POI_TYPES, type PoiType } from './poi-query.js'

const coordinate = v.optional(v.number())
const answer = v.looseObject({
  osm3s: v.optional(v.looseObject({ timestamp_osm_base: v.optional(v.string()) })),
  remark: v.optional(v.string()),
  elements: v.array(
    v.looseObject({
      type: v.string(),
      id: v.number(),
      lat: coordinate,
      lon: coordinate,
      center: v.optional(v.looseObject({ lat: v.number(), lon: v.number() })),
      tags: v.optional(v.record(v.string(), v.string()), {}),
    }),
  ),
})

/** One POI as this source keeps it. */
export interface Poi {
  id: number
  osmType: string
  position: Wgs84Point
  type: PoiType
  category: string
  name: string | null
  address: string | null
  openingHours: string | null
  website: string | null
}

/** What one Overpass answer held. */
export interface OverpassPois {
  pois: Poi[]
  /** Elements in the answer, before the POI filter. */
  elements: number
  /** When OpenStreetMap data the answer reflects was current. */
  dataAsOf: string | null
}

function typeOf(
  tags: Record<string, string>,
  wanted: PoiType | undefined,
  category: string | undefined,
): PoiType | undefined {
  if (wanted) return tags[wanted] !== undefined ? wanted : undefined
  return POI_TYPES.find((key) => tags[key] !== undefined && (category === undefined || tags[key] === category))
}

function addressOf(tags: Record<string, string>): string | null {
  const street = [tags['addr:street'], tags['addr:housenumber']].filter(Boolean).join(' ')
  const place = [tags['addr:postcode'], tags['addr:city']].filter(Boolean).join(' ')
  const address = [street, place].filter((part) => part !== '').join(', ')
  return address === '' ? null : address
}

/**
 * Reads an Overpass JSON answer. Overpass reports a query that ran out of time or memory as a
 * `remark` in a 200 answer, with whatever elements it had by then; that is a 502, not a short list.
 *
 * @example
 * const { pois } = parseOverpassPois(res.body, client, { category: 'restaurant' })
 */
export function parseOverpassPois(
  body: unknown,
  upstream: { id: string; name: string },
  filter: { type?: PoiType | undefined; category?: string | undefined },
): OverpassPois {
  const parsed = checkUpstreamShape(upstream, answer, body, 'the POI query')
  if (parsed.remark && /error/i.test(parsed.remark)) {
    throw new UpstreamError(
      upstream,
      'status',
      `reported an error inside HTTP 200 (${parsed.remark.trim().slice(0, 160)})`,
    )
  }
  const pois: Poi[] = []
  for (const element of parsed.elements) {
    const tags = element.tags ?? {}
    const position = element.center ?? { lat: element.lat, lon: element.lon }
    const type = typeOf(tags, filter.type, filter.category)
    if (!type || !isKnownPosition(position)) continue
    pois.push({
      id: element.id,
      osmType: element.type,
      position,
      type,
      category: tags[type]!,
      name: tags.name?.trim() || null,
      address: addressOf(tags),
      openingHours: tags.opening_hours ?? null,
      website: tags.website ?? tags['contact:website'] ?? null,
    })
  }
  return { pois, elements: parsed.elements.length, dataAsOf: parsed.osm3s?.timestamp_osm_base ?? null }
}
