import type { EntityHit, EntitySearch } from '@allmenning/core/source'

type NamedCode = { code: string; name: string }

/**
 * Airports and airlines by code or name, through `lookup_airport` and `lookup_airline` (so a
 * search reuses their cached lists). Three letters are recognisably an airport code.
 */
export const avinorEntitySearch: EntitySearch = {
  recognize: (text) => (/^[a-zA-Z]{3}$/.test(text.trim()) ? 'airport_code' : undefined),
  async search(text, ctx) {
    const query = text.trim().slice(0, 100)
    // The lookups take two characters or more; a single letter would match most of either list.
    if (query.length < 2) return { hits: [] }
    const [airports, airlines] = (await Promise.all([
      ctx.call('lookup_airport', { query, limit: ctx.limit }),
      ctx.call('lookup_airline', { query, limit: ctx.limit }),
    ])) as [NamedCode[], NamedCode[]]
    const hits: EntityHit[] = [
      ...airports.map((a) => ({ type: 'airport', id: a.code, name: a.name, description: `Airport (IATA ${a.code})` })),
      ...airlines.map((a) => ({ type: 'airline', id: a.code, name: a.name, description: `Airline (IATA ${a.code})` })),
    ]
    return { hits }
  },
}
