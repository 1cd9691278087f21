import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { distanceKm, pointParameters } from '../shared/wgs84-point.js'
import { kartverketStedsnavn } from './kartverket-upstreams.js'
import { fetchPointPlacePage, PLACE_PAGING } from './place-name-api.js'
import { placeNamesPlaceField } from './place-fields.js'
import { placeEntity, placeFields } from './place-mapping.js'
import { radiusMetres } from './search-parameters.js'
import { fetchWindow } from '../shared/upstream-pages.js'

/**
 * `find_place_names_nearby`: the named places around a WGS84 point.
 *
 * @example
 * const { data } = await findPlaceNamesNearby.run({ lat: 59.9112, lon: 10.7339, radius: 1000, limit: 25, offset: 0 }, ctx)
 * // { places: [{ place_id, name: 'Rådhusplassen', type: 'Plass', distance_m: 40, names: [...] }, ...] }
 */
export const findPlaceNamesNearby = defineOperation({
  description:
    'The named places within a radius of a WGS84 point, from Kartverket’s central place-name register, each with ' +
    'its distance in metres and all its names. Kartverket puts the most local kinds of place first (a brook before ' +
    'a county) and orders each kind by distance.',
  // Four decimals (about 11 m), as for addresses: the nearest names are often only metres apart.
  parameters: { ...pointParameters(4), radius: radiusMetres(1000, 'places') },
  output: v.object({
    places: v.array(
      v.object({ ...placeFields, distance_m: v.pipe(v.number(), v.description('Distance from the point in metres')) }),
    ),
  }),
  list: 'places',
  placeField: placeNamesPlaceField,
  canonicalFieldAliases: { name: ['places[].name', 'places[].names[].name'] },
  shapeNote:
    'data is {places, has_more_results}, the shape of search_place_name (which the public gateway’s clients read), with ' +
    'distance_m on every place. The clients are not known to call a point search of names, so the name and radius ' +
    '(metres, Kartverket’s unit) are this gateway’s own.',

  async run(params, ctx) {
    const client = ctx.upstream(kartverketStedsnavn)
    const query = { nord: params.lat, ost: params.lon, radius: params.radius }
    const { items, page } = await fetchWindow(params, PLACE_PAGING, (side, size) =>
      fetchPointPlacePage(client, query, side, size),
    )
    // Kartverket gives each distance; should one be missing, it is measured here rather than guessed.
    const places = items.map((place) => ({
      ...place,
      distance_m: place.distance_m ?? Math.round(distanceKm(params, place) * 1000),
    }))
    return { data: { places }, page }
  },

  entities: (data) => data.places.map(placeEntity),
})
