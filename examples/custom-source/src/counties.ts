import { rankByName, type EntitySearch } from '@allmenning/core/source'

/** Norway's counties (fylker) since 2024, by the number MetAlerts tags its warnings with. */
export const counties: Record<string, string> = {
  '03': 'Oslo',
  '11': 'Rogaland',
  '15': 'Møre og Romsdal',
  '18': 'Nordland',
  '31': 'Østfold',
  '32': 'Akershus',
  '33': 'Buskerud',
  '34': 'Innlandet',
  '39': 'Vestfold',
  '40': 'Telemark',
  '42': 'Agder',
  '46': 'Vestland',
  '50': 'Trøndelag',
  '55': 'Troms',
  '56': 'Finnmark',
}

export const countyNumbers = Object.keys(counties) as [string, ...string[]]

const list = Object.entries(counties).map(([code, name]) => ({ code, name }))

/**
 * Finds counties by name or number for `/api/v1/sok/alle`, from the table above: no upstream
 * call. Each hit is a `county` entity, which the core links to `get_alerts?county=<number>`.
 */
export const countySearch: EntitySearch = {
  async search(text, ctx) {
    const ranked = rankByName(text, list, (county) => ({ codes: [county.code], names: [county.name] }))
    const hits = ranked.map(({ item }) => ({
      type: 'county',
      id: item.code,
      name: item.name,
      description: 'County (fylke): weather warnings in force',
    }))
    return { hits: hits.slice(0, ctx.limit), matched: hits.length }
  },
}
