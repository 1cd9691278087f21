import { rankByName, type EntityHit, type EntitySearch } from '@allmenning/core/source'
import type { Address } from './address-mapping.js'

interface FoundPlace {
  place_id: number
  name: string
  type: string | null
  lat: number
  lon: number
  municipalities: { name: string | null }[]
}

const where = (...parts: (string | null | undefined)[]) =>
  parts.filter((part) => part !== null && part !== undefined && part !== '').join(' ')

function addressHit(address: Address): EntityHit {
  return {
    type: 'address',
    id: address.address,
    name: address.address,
    description: `Address, ${where(address.postal_code, address.postal_place)}${address.municipality ? ` (${address.municipality})` : ''}`,
    // The municipality tells apart the many "Storgata 1"s when the link is followed.
    linkParameters: {
      text: address.address,
      ...(address.municipality_number ? { kommunenummer: address.municipality_number } : {}),
    },
    lat: address.lat,
    lon: address.lon,
  }
}

function placeHit(place: FoundPlace): EntityHit {
  const municipality = place.municipalities
    .map((m) => m.name)
    .filter(Boolean)
    .join(', ')
  return {
    type: 'place',
    id: String(place.place_id),
    name: place.name,
    description: where(place.type ?? 'Place', municipality ? `in ${municipality}` : undefined),
    lat: place.lat,
    lon: place.lon,
  }
}

/**
 * Addresses and place names for a text, through `search_address` and `search_place_name`
 * (so a search shares their cache), ranked together by how well their names match; each hit
 * has its WGS84 position, so `/steder/sok` lists it with a link to its place. When one of the
 * two registers fails, the other's hits still come back; when both fail, the search fails.
 */
export const geonorgeEntitySearch: EntitySearch = {
  async search(text, ctx) {
    const query = text.trim().slice(0, 100)
    if (query === '') return { hits: [] }
    const [addresses, places] = await Promise.allSettled([
      ctx.call('search_address', { text: query, limit: ctx.limit }) as Promise<{ addresses: Address[] }>,
      ctx.call('search_place_name', { text: query, limit: ctx.limit }) as Promise<{ places: FoundPlace[] }>,
    ])
    if (addresses.status === 'rejected' && places.status === 'rejected') throw addresses.reason
    const hits = [
      ...(addresses.status === 'fulfilled' ? addresses.value.addresses.map(addressHit) : []),
      ...(places.status === 'fulfilled' ? places.value.places.map(placeHit) : []),
    ]
    // Kartverket's own order is kept within a tier; a hit that only matched fuzzily stays, last.
    return {
      hits: rankByName(query, hits, (hit) => ({ names: [hit.name] }), { keepUnmatched: true }).map(({ item }) => item),
    }
  },
}
