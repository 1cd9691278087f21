import type { EntitySearch } from '@allmenning/core/source'
import type { RegistrationPoint } from './registration-points.js'

/**
 * Registration points by name or id, through the source's own `search_registration_points`:
 * the point list is fetched once a day, so a search costs Vegvesen nothing more.
 */
export const vegvesenEntitySearch: EntitySearch = {
  recognize: (text) => (/^\d{1,10}[A-Z]\d{1,10}$/i.test(text.trim()) ? 'traffic_registration_point' : undefined),
  async search(text, ctx) {
    const query = text.trim()
    if (query.length < 2) return { hits: [], matched: 0 }
    const points = (await ctx.call('search_registration_points', { query, limit: 100 })) as RegistrationPoint[]
    const hits = points.map((p) => ({
      type: 'traffic_registration_point',
      id: p.id,
      name: p.name,
      description: `Traffic registration point (Statens vegvesen)${p.road_reference ? ` on ${p.road_reference}` : ''}: its traffic volumes`,
    }))
    return { hits: hits.slice(0, ctx.limit), matched: hits.length }
  },
}
