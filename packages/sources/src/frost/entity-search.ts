import type { EntityHit, EntitySearch } from '@allmenning/core/source'
import { foldNorwegian } from '@allmenning/core/source'
import { namedLike } from './station-filters.js'
import type { StationList } from './station-list.js'

interface StationRow {
  id: string
  name: string | null
  short_name: string | null
  lat: number | null
  lon: number | null
  municipality: string | null
  masl: number | null
}

const hitOf = (s: StationRow): EntityHit => ({
  type: 'weather_station',
  id: s.id,
  name: s.name ?? s.short_name ?? s.id,
  description: `MET Norway weather station ${s.id}${s.municipality ? `, ${s.municipality}` : ''}${s.masl !== null ? `, ${s.masl} m a.s.l.` : ''}`,
  ...(s.lat !== null && s.lon !== null ? { lat: s.lat, lon: s.lon } : {}),
})

/**
 * Weather stations by name or id (`Blindern`, `SN18700`): from the station register when it is
 * in memory, else through `find_stations` with the name alone, which asks Frost's own name
 * search once (never the whole register). A Frost id is recognisably a station.
 *
 * @example
 * const entitySearch = frostEntitySearch(createStationList(clientId, frostRequestBudget))
 */
export function frostEntitySearch(stations: StationList | undefined): EntitySearch {
  return {
    recognize: (text) => (/^SN\d{2,8}$/i.test(text.trim()) ? 'weather_station_id' : undefined),
    async search(text, ctx) {
      const query = text.trim().slice(0, 60)
      if (foldNorwegian(query).length < 2 || !stations) return { hits: [] }
      const held = stations.peek()
      if (held) {
        const matching = held.stations.filter(namedLike(query))
        const rows = matching.slice(0, ctx.limit).map((s) => ({ ...s, short_name: s.shortName }))
        return { hits: rows.map(hitOf), matched: matching.length }
      }
      // find_stations refuses characters its name search cannot take; such a text finds no station.
      if (!/^[\p{L}\p{N} .'()-]+$/u.test(query)) return { hits: [] }
      const rows = (await ctx.call('find_stations', { name: query, limit: ctx.limit })) as StationRow[]
      return { hits: rows.map(hitOf) }
    },
  }
}
