import { rankByName, type EntitySearch } from '@allmenning/core/source'
import type { Stop } from './geocoder-stops.js'
import { AUTOCOMPLETE_SIZE } from './autocomplete-size.js'

/**
 * Stop places by name, through the source's own `search_stops`: the call goes through the
 * pipeline, so a search already answered (or cached for the day) costs Entur nothing more.
 */
export const enturEntitySearch: EntitySearch = {
  async search(text, ctx) {
    const { stops } = (await ctx.call('search_stops', { query: text, limit: AUTOCOMPLETE_SIZE })) as { stops: Stop[] }
    const ranked = rankByName(text, stops, (stop) => ({
      codes: [stop.id],
      names: [stop.name, ...(stop.label ? [stop.label] : [])],
    }))
    const hits = ranked.map(({ item }) => ({
      type: 'stop_place',
      id: item.id,
      name: item.label ?? item.name,
      description: 'Public transport stop place (Entur): its next departures',
    }))
    return { hits: hits.slice(0, ctx.limit), matched: hits.length }
  },
}
