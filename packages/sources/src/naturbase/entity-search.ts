import type { EntityHit, EntitySearch } from '@allmenning/core/source'
import type { ProtectedArea } from './protected-area-rows.js'

function hitOf(area: ProtectedArea): EntityHit {
  const form = area.protection_form_text ?? 'Protected area'
  return {
    type: 'protected_area',
    id: area.id,
    name: area.official_name ?? area.name ?? area.id,
    description: `${form.charAt(0).toUpperCase()}${form.slice(1)}${area.municipality ? ` in ${area.municipality}` : ''}`,
    ...(area.lat !== null && area.lon !== null ? { lat: area.lat, lon: area.lon } : {}),
  }
}

/**
 * Protected areas by name, through `search_protected_areas` (one query to Naturbase, shared
 * with that operation's cache), each hit at a point inside its area so `/api/v1/steder/sok`
 * lists it.
 */
export const naturbaseEntitySearch: EntitySearch = {
  async search(text, ctx) {
    const query = text.trim().slice(0, 100)
    if (query.length < 2 || !/[\p{L}\d]/u.test(query)) return { hits: [] }
    const data = (await ctx.call('search_protected_areas', { query, limit: ctx.limit })) as {
      protected_areas: ProtectedArea[]
      count: number
    }
    return { hits: data.protected_areas.slice(0, ctx.limit).map(hitOf), matched: data.count }
  },
}
