import { rankByName, type EntitySearch } from '@allmenning/core/source'
import { priceAreaNames } from './price-areas.js'

const areas = Object.entries(priceAreaNames).map(([code, name]) => ({ code, name }))

/** Price areas by code or name, from the source's own list: no upstream call. */
export const statnettEntitySearch: EntitySearch = {
  recognize: (text) => (/^(no[1-5]|se[1-4]|dk[12])$/i.test(text.trim()) ? 'price_area' : undefined),
  async search(text, ctx) {
    const ranked = rankByName(text, areas, (area) => ({ codes: [area.code], names: [area.name] }))
    const hits = ranked.map(({ item }) => ({
      type: 'price_area',
      id: item.code,
      name: item.name,
      description: 'Electricity price area',
    }))
    return { hits: hits.slice(0, ctx.limit), matched: hits.length }
  },
}
