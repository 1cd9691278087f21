import { rankByName, type EntitySearch } from '@allmenning/core/source'
import { findStation, normalizeCode, STATIONS } from './stations.js'

/**
 * Railway stations by name or Bane NOR code, from the station table in memory (no upstream is
 * asked, so a search answers at once), each hit with its position. One to four letters that
 * are a code of the table are recognisably a station.
 */
export const banenorEntitySearch: EntitySearch = {
  recognize: (text) =>
    /^\p{L}{2,4}$/u.test(text.trim()) && findStation(normalizeCode(text)) ? 'station_code' : undefined,
  async search(text, ctx) {
    const query = text.trim().slice(0, 100)
    if (query.length < 2) return { hits: [] }
    const ranked = rankByName(query, STATIONS, (s) => ({ codes: [s.code], names: [s.name] }))
    const hits = ranked.slice(0, ctx.limit).map(({ item }) => ({
      type: 'train_station',
      id: item.code,
      name: item.name,
      description:
        item.kind === 'freight_terminal'
          ? `Freight terminal (Bane NOR code ${item.code})`
          : `Railway station (Bane NOR code ${item.code})`,
      lat: item.lat,
      lon: item.lon,
    }))
    return { hits, matched: ranked.length }
  },
}
