import * as v from 'valibot'
import { checkUpstreamShape, type UpstreamClient } from '@allmenning/core/source'
import { isKnownPosition } from '../shared/nearest.js'
import type { Wgs84Point } from '../shared/wgs84-point.js'
import { present } from './entur-fields.js'

const text = v.optional(v.nullable(v.string()))

// Entur's geocoder is Pelias: a GeoJSON FeatureCollection, positions as [lon, lat].
const feature = v.looseObject({
  type: v.literal('Feature'),
  geometry: v.nullish(v.looseObject({ type: v.string(), coordinates: v.optional(v.array(v.unknown())) })),
  properties: v.looseObject({
    id: text,
    name: text,
    label: text,
    layer: text,
    locality: text,
    county: text,
    category: v.optional(v.nullable(v.array(v.string()))),
    tariff_zones: v.optional(v.nullable(v.array(v.string()))),
  }),
})

const featureCollection = v.looseObject({ type: v.literal('FeatureCollection'), features: v.array(feature) })

/** A stop place as the source answers it. */
export const stopSchema = v.object({
  id: v.pipe(
    v.string(),
    v.description('NSR id of the stop place, e.g. NSR:StopPlace:337; get_departures takes it as stop_place_id'),
  ),
  name: v.pipe(v.string(), v.description('Name of the stop place')),
  label: v.pipe(v.nullable(v.string()), v.description('Name with its municipality, as Entur labels it')),
  municipality: v.pipe(v.nullable(v.string()), v.description("Municipality (the geocoder's locality)")),
  county: v.pipe(v.nullable(v.string()), v.description('County')),
  category: v.pipe(
    v.array(v.string()),
    v.description('NeTEx kinds of stop there, each once, e.g. onstreetBus, railStation, ferryStop'),
  ),
  tariff_zones: v.pipe(v.array(v.string()), v.description('Tariff and fare zones the stop lies in')),
  lat: v.pipe(v.number(), v.description('WGS84 latitude')),
  lon: v.pipe(v.number(), v.description('WGS84 longitude')),
})

/** One stop place read from the geocoder, with its position. */
export type Stop = v.InferOutput<typeof stopSchema>

/**
 * The stop places in a geocoder answer, in its order. Only `NSR:StopPlace:` ids are kept: the
 * venue layer also holds groups of stop places and points of interest, which have no
 * departures of their own. A feature without a usable position is left out.
 *
 * @example
 * const stops = readGeocoderStops(client, res.body) // [{ id: 'NSR:StopPlace:337', name: '…', lat, lon, … }]
 */
export function readGeocoderStops(client: UpstreamClient, body: unknown): Stop[] {
  const collection = checkUpstreamShape(client, featureCollection, body, 'the geocoder FeatureCollection')
  const stops: Stop[] = []
  for (const f of collection.features) {
    const p = f.properties
    const id = present(p.id)
    const name = present(p.name)
    const position = positionOf(f.geometry?.coordinates)
    if (!id || !/^NSR:StopPlace:\d+$/.test(id) || !name || !position) continue
    stops.push({
      id,
      name,
      label: present(p.label),
      municipality: present(p.locality),
      county: present(p.county),
      // The geocoder repeats a category once per quay of that kind (onstreetBus nine times at Jernbanetorget).
      category: [...new Set(p.category ?? [])],
      tariff_zones: [...new Set(p.tariff_zones ?? [])],
      lat: position.lat,
      lon: position.lon,
    })
  }
  return stops
}

function positionOf(coordinates: unknown[] | undefined): Wgs84Point | null {
  const position = { lat: coordinates?.[1], lon: coordinates?.[0] }
  return isKnownPosition(position) ? position : null
}
