import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { distanceKm, pointParameters } from '../shared/wgs84-point.js'
import { addressFields } from './address-mapping.js'
import { ADDRESS_PAGING, ADDRESS_PATHS, fetchAddressPage } from './address-api.js'
import { kartverketAdresser } from './kartverket-upstreams.js'
import { addressesPlaceField } from './place-fields.js'
import { radiusMetres } from './search-parameters.js'
import { fetchWindow } from '../shared/upstream-pages.js'

/**
 * `find_addresses_nearby`: the addresses around a WGS84 point, nearest first.
 *
 * @example
 * const { data } = await findAddressesNearby.run({ lat: 59.9112, lon: 10.7339, radius: 250, limit: 25, offset: 0 }, ctx)
 * // { addresses: [{ address: 'Fridtjof Nansens plass 1', distance_m: 14.2, ... }] }
 */
export const findAddressesNearby = defineOperation({
  description:
    'The addresses within a radius of a WGS84 point, nearest first, each with its distance in metres, from ' +
    'Kartverket’s address register: what is at this place?',
  // Four decimals (about 11 m): addresses are metres apart, so a coarser cell would change the answer.
  parameters: { ...pointParameters(4), radius: radiusMetres(250, 'addresses') },
  output: v.object({
    addresses: v.array(
      v.object({
        ...addressFields,
        distance_m: v.pipe(v.number(), v.description('Distance from the point in metres')),
      }),
    ),
  }),
  list: 'addresses',
  placeField: addressesPlaceField,
  canonicalFieldAliases: { name: ['addresses[].address'] },
  shapeNote:
    'data is {addresses, has_more_results}, the shape of search_address, with distance_m on every address. The public ' +
    'gateway’s clients are not known to call a point search of addresses, so the name and radius (metres, Kartverket’s unit) are this gateway’s own.',

  async run(params, ctx) {
    const client = ctx.upstream(kartverketAdresser)
    // koordsys says the point is in ETRS89, which Kartverket documents; it is within a metre of WGS84.
    const query = { lat: params.lat, lon: params.lon, radius: params.radius, koordsys: 4258 }
    const { items, page } = await fetchWindow(params, ADDRESS_PAGING, (side, size) =>
      fetchAddressPage(client, ADDRESS_PATHS.point, query, side, size),
    )
    // Kartverket gives each distance; should one be missing, it is measured here rather than guessed.
    const addresses = items.map((address) => ({
      ...address,
      distance_m: address.distance_m ?? Math.round(distanceKm(params, address) * 10_000) / 10,
    }))
    return { data: { addresses }, page }
  },
})
