import { rankByName, type EntityHit, type EntitySearch } from '@allmenning/core/source'
import { organisationNumberIn } from './organisation-number.js'
import type { UnitRegister } from './unit-register.js'

type Unit = {
  organization_id: string
  kind: 'school' | 'kindergarten'
  Navn: string
  lat: number | null
  lon: number | null
}

/**
 * Schools and kindergartens by name among the units this process has listed (a search never
 * reads a list itself: the registers cannot be searched by name for the whole country without
 * reading it all), and by organisation number through `get_unit` (one call, then cached).
 *
 * @example
 * const entitySearch = unitEntitySearch(() => store)
 */
export function unitEntitySearch(register: () => UnitRegister | undefined): EntitySearch {
  return {
    recognize: (text) => (organisationNumberIn(text) ? 'organization_number' : undefined),
    async search(text, ctx) {
      const orgnr = organisationNumberIn(text)
      if (orgnr) {
        const unit = (await ctx.call('get_unit', { organization_id: orgnr }).catch(() => undefined)) as Unit | undefined
        if (!unit) return { hits: [] }
        const hit: EntityHit = {
          type: unit.kind,
          id: unit.organization_id,
          name: unit.Navn,
          description: describe(unit.kind),
        }
        if (unit.lat !== null && unit.lon !== null) Object.assign(hit, { lat: unit.lat, lon: unit.lon })
        return { hits: [hit] }
      }
      const known = register()
      if (!known || text.trim().length < 2) return { hits: [] }
      const units = [...known.allListed()].filter((u) => u.active)
      const ranked = rankByName(text, units, (u) => ({
        codes: [u.orgnr],
        names: [u.name, ...(u.fullName ? [u.fullName] : [])],
      }))
      const hits = ranked.map(({ item }): EntityHit => {
        const kind = item.register === 'nsr' ? 'school' : 'kindergarten'
        const p = known.state(item) === 'known' ? known.position(item.orgnr)?.position : undefined
        const hit: EntityHit = {
          type: kind,
          id: item.orgnr,
          name: item.name,
          description: describe(kind, item.municipalityNumber),
        }
        if (p && p.lat !== null && p.lon !== null) Object.assign(hit, { lat: p.lat, lon: p.lon })
        return hit
      })
      return { hits: hits.slice(0, ctx.limit), matched: hits.length }
    },
  }
}

function describe(kind: 'school' | 'kindergarten', municipality?: string | null): string {
  const what =
    kind === 'school' ? "School in Udir's school register (NSR)" : "Kindergarten in Udir's kindergarten register (NBR)"
  return municipality ? `${what}, municipality ${municipality}` : what
}
