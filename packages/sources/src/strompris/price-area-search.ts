import { rankByName, type EntityInput, type EntitySearch } from '@allmenning/core/source'
import { priceAreaNames } from '../statnett/price-areas.js'
import { priceAreas } from './price-areas.js'

const areas = priceAreas.map((code) => ({ code, name: priceAreaNames[code] ?? code }))

/** The price-area entity of this source, linked to the day's prices there. */
export const priceAreaEntity = (code: string): EntityInput => ({
  type: 'price_area',
  id: code,
  name: priceAreaNames[code] ?? code,
})

/**
 * The five Norwegian price areas by code or by name (`NO5`, `Bergen`, `Vest-Norge`), from the
 * names `statnett` uses, so both sources' hits read alike: no upstream call.
 *
 * @example
 * priceAreaSearch.recognize?.('no5') // 'price_area'; search('Bergen', ctx) finds NO5
 */
export const priceAreaSearch: EntitySearch = {
  recognize: (text) => (/^no[1-5]$/i.test(text.trim()) ? 'price_area' : undefined),
  async search(text, ctx) {
    const ranked = rankByName(text, areas, (area) => ({ codes: [area.code], names: [area.name] }))
    const hits = ranked.map(({ item }) => ({
      type: 'price_area',
      id: item.code,
      name: item.name,
      description: 'Electricity price area: its spot prices today',
    }))
    return { hits: hits.slice(0, ctx.limit), matched: hits.length }
  },
}
