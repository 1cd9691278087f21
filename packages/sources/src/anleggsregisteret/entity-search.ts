import type { EntitySearch } from '@allmenning/core/source'
import type { facilitySchema } from './facility-row.js'
import type * as v from 'valibot'

type FacilityRow = v.InferOutput<typeof facilitySchema>

/**
 * Facilities by name, through `search_facilities` (so a search reads the register copy the
 * operations share, and a register still being read costs the search its budget, never more).
 */
export const anleggsregisteretEntitySearch: EntitySearch = {
  async search(text, ctx) {
    const query = text.trim().slice(0, 100)
    if (query.length < 2) return { hits: [] }
    const found = (await ctx.call('search_facilities', { query, limit: ctx.limit })) as {
      facilities: FacilityRow[]
      count: number
    }
    return {
      hits: found.facilities.map((f) => ({
        type: 'facility',
        id: String(f.id),
        name: f.name ?? `Facility ${f.id}`,
        description: [f.facility_type ?? 'Facility', f.municipality].filter(Boolean).join(', '),
        ...(f.lat !== null && f.lon !== null ? { lat: f.lat, lon: f.lon } : {}),
      })),
      matched: found.count,
    }
  },
}
