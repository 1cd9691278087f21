import { GatewayError } from '@allmenning/core'
import type { EntitySearch } from '@allmenning/core/source'
import { ESTABLISHMENT_ENTITY } from './establishment-entity.js'
import type { EstablishmentRow } from './establishment-rows.js'

/**
 * Establishments by name, through `search_establishments` (one full-text lookup in the loaded
 * file, well inside the search's budget), with their position when their address is placed.
 * A deployment without the file loaded finds nothing here rather than failing the search.
 *
 * @example
 * import { mattilsynet } from '@allmenning/sources/mattilsynet'
 * const hits = mattilsynet().entitySearch === mattilsynetEntitySearch // true: the source declares it
 * // GET /api/v1/sok/alle?q=pizza: { type: 'food_establishment', id: 'Z1601…', name: 'Pizza…', lat: 59.91, lon: 10.75 }
 */
export const mattilsynetEntitySearch: EntitySearch = {
  async search(query, ctx) {
    if (!/[\p{L}\p{N}]/u.test(query)) return { hits: [] }
    let data: { establishments: EstablishmentRow[]; total: number }
    try {
      data = (await ctx.call('search_establishments', {
        query: query.slice(0, 100),
        limit: Math.min(ctx.limit, 1000),
      })) as typeof data
    } catch (error) {
      if (error instanceof GatewayError && error.status === 400) return { hits: [] }
      throw error
    }
    return {
      matched: data.total,
      hits: data.establishments.map((e) => ({
        type: ESTABLISHMENT_ENTITY,
        id: e.establishment_id,
        name: e.navn,
        description:
          [e.adresse, [e.postnr, e.poststed].filter(Boolean).join(' ')].filter(Boolean).join(', ') +
          (e.karakter === null ? '' : ` (smilefjes ${e.karakter})`),
        linkParameters: { query: e.navn, ...(e.postnr ? { postnr: e.postnr } : {}) },
        ...(e.lat !== null && e.lon !== null ? { lat: e.lat, lon: e.lon } : {}),
      })),
    }
  },
}
