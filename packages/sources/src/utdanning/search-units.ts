import * as v from 'valibot'
import { defineOperation, foldNorwegian, type OperationContext } from '@allmenning/core/source'
import type { MunicipalityLookup } from '../shared/kommuneinfo.js'
import { udirEnheter, unitsInArea } from './dataset-units.js'
import { loadedDataset } from './loaded-dataset.js'
import { resolveArea, fylkenrParameter, kommunenrParameter, type ResolvedArea } from './unit-area.js'
import { registerUpstream, type UdirRegister } from './udir-upstreams.js'
import { withFlagAliases, type ListedUnit } from './unit-payloads.js'
import type { UnitRegister } from './unit-register.js'
import {
  kindergartenRow,
  schoolRow,
  schoolTypeOf,
  toKindergartenRow,
  toSchoolRow,
  type PositionSource,
} from './unit-rows.js'
import { isKindergarten, isSchool } from './unit-kinds.js'

/** What the search operations are built over. */
export interface SearchUnitsDeps {
  register: UnitRegister
  municipalities: MunicipalityLookup
}

/** Most rows one page holds. */
export const MAX_LIMIT = 1000

const areaOutput = {
  total: v.pipe(v.number(), v.description('Units that match, before limit and offset')),
  returned: v.pipe(v.number(), v.description('Units on this page')),
  coordinates_known: v.pipe(v.number(), v.description('Rows on this page with lat/lon')),
  coordinates_pending: v.pipe(
    v.number(),
    v.description(
      'Rows on this page whose record is not read yet, so their position is not known yet: ask again shortly',
    ),
  ),
  coordinates_missing: v.pipe(v.number(), v.description('Rows on this page whose record has no position')),
  coordinates_not_synced: v.pipe(
    v.number(),
    v.description(
      'Rows on this page whose record the udir_enheter dataset does not hold (closed units): no position is read for them',
    ),
  ),
  positions_from: v.pipe(
    v.picklist(['dataset', 'requests']),
    v.description(
      'dataset: the list and the positions come from the udir_enheter dataset (npx allmenning datasets sync udir_enheter), ' +
        "no call to Udir; requests: it is not loaded, so the area's list is read from Udir and the positions of the page's " +
        'rows are read from their records within a request budget (rows not read yet are pending)',
    ),
  ),
  kommunenr: v.pipe(v.nullable(v.string()), v.description('The municipality searched (4 digits), when one was')),
  fylkenr: v.pipe(v.nullable(v.string()), v.description('The county searched (2 digits), when no municipality was')),
  area_name: v.pipe(v.nullable(v.string()), v.description("The municipality's name, when it was given by name")),
  register_read_at: v.pipe(
    v.string(),
    v.description(
      "When the gateway last read the area's list from Udir, or loaded the udir_enheter dataset (ISO 8601)",
    ),
  ),
}

const queryParameter = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(100, 'must be at most 100 characters'),
    v.description('Only units whose name contains this text (case and æøå folded)'),
  ),
)

const includeInactive = v.optional(
  v.pipe(
    v.boolean(),
    v.description('true: closed units too (ErAktiv false); false, the default: units in operation only'),
  ),
  false,
)

const optionalFlag = (what: string) => v.optional(v.pipe(v.boolean(), v.description(what)))

const nameKey = (s: string) => foldNorwegian(s.toLowerCase()).replace(/\s+/g, ' ')

function matchesName(unit: ListedUnit, query: string | undefined): boolean {
  if (query === undefined) return true
  const q = nameKey(query)
  return nameKey(unit.name).includes(q) || (unit.fullName !== null && nameKey(unit.fullName).includes(q))
}

function wants(flag: boolean | undefined, value: boolean | undefined): boolean {
  return flag === undefined || (value === true) === flag
}

/** The shared part of both searches: the area's list, its filter, one page, and the page's positions. */
async function searchPage(
  deps: SearchUnitsDeps,
  ctx: OperationContext,
  which: UdirRegister,
  params: { kommunenr?: string | undefined; fylkenr?: string | undefined; limit: number; offset: number },
  keep: (unit: ListedUnit) => boolean,
) {
  const area: ResolvedArea = await resolveArea(params, ctx, deps.municipalities)
  const client = ctx.upstream(registerUpstream(which))
  const byName = (a: ListedUnit, b: ListedUnit) => a.name.localeCompare(b.name, 'nb') || a.orgnr.localeCompare(b.orgnr)
  const reader = loadedDataset(ctx)
  if (reader) {
    const { units, positions } = await unitsInArea(reader, which, area.area)
    const matching = units.filter(keep).sort(byName)
    const page = matching.slice(params.offset, params.offset + params.limit)
    const list = { units, readAt: Date.parse(reader.version.loadedAt), pagesLeftOut: 0, total: units.length }
    return { area, list, matching, page, client, positions, from: 'dataset' as const }
  }
  const list = await deps.register.list(client, which, area.area)
  const matching = list.units.filter(keep).sort(byName)
  const page = matching.slice(params.offset, params.offset + params.limit)
  // The page's positions first; the rest of the matches take their turn in later requests.
  await deps.register.fill(client, page)
  return { area, list, matching, page, client, positions: deps.register as PositionSource, from: 'requests' as const }
}

function summary(
  rows: { coordinates_status: string }[],
  total: number,
  area: ResolvedArea,
  readAt: number,
  from: 'dataset' | 'requests',
) {
  return {
    total,
    returned: rows.length,
    coordinates_known: rows.filter((r) => r.coordinates_status === 'known').length,
    coordinates_pending: rows.filter((r) => r.coordinates_status === 'pending').length,
    coordinates_missing: rows.filter((r) => r.coordinates_status === 'none').length,
    coordinates_not_synced: rows.filter((r) => r.coordinates_status === 'not_synced').length,
    positions_from: from,
    kommunenr: area.kommunenr,
    fylkenr: area.kommunenr ? null : area.fylkenr,
    area_name: area.name,
    register_read_at: new Date(readAt).toISOString(),
  }
}

const cappedBy = (list: { pagesLeftOut: number; units: unknown[] }) =>
  list.pagesLeftOut > 0
    ? {
        capped: {
          cap: list.units.length,
          reason: `Udir's list had ${list.pagesLeftOut} pages more than the gateway reads; narrow the area`,
        },
      }
    : {}

/**
 * Builds `search_schools` over one source instance's register.
 *
 * @example
 * const searchSchools = createSearchSchools(deps)
 */
export function createSearchSchools(deps: SearchUnitsDeps) {
  return defineOperation({
    description:
      "Schools of a municipality (or county) from Udir's national school register (NSR): name, the flags clients read " +
      '(ErGrunnskole, ErVideregaaendeSkole, ErPrivatskole, ErAktiv ...), address and WGS84 position. Udir also registers ' +
      'fagskoler, culture schools, adult education and gyms as schools: they are left out unless include_other_schools=true ' +
      "(school_type says which is which). Positions are only in each school's own record: with the udir_enheter dataset " +
      'loaded (positions_from "dataset") every row comes from it, no call to Udir; without it the gateway reads the ' +
      'records in the background within its request budget and keeps them for 30 days, so a first call may answer rows ' +
      'with coordinates_status "pending" (counted in coordinates_pending) that a call a little later answers with lat/lon.',
    parameters: {
      kommunenr: kommunenrParameter,
      fylkenr: fylkenrParameter,
      query: queryParameter,
      grunnskole: optionalFlag('true: only primary/lower secondary schools; false: none of them'),
      videregaende: optionalFlag('true: only upper secondary schools; false: none of them'),
      privat: optionalFlag('true: only private schools; false: only public ones'),
      include_inactive: includeInactive,
      include_other_schools: v.optional(
        v.pipe(
          v.boolean(),
          v.description(
            'true: also units Udir registers as schools that are neither grunnskole nor videregående (fagskoler, gyms ...)',
          ),
        ),
        false,
      ),
    },
    limit: { default: 100, max: MAX_LIMIT },
    output: v.object({
      units: v.array(schoolRow),
      ...areaOutput,
      other_schools_left_out: v.pipe(
        v.number(),
        v.description(
          'Units registered as schools but neither grunnskole nor videregående, left out (include_other_schools=false)',
        ),
      ),
    }),
    list: 'units',
    canonicalFieldAliases: { name: ['units[].Navn'], latitude: ['units[].lat'], longitude: ['units[].lon'] },
    shapeNote:
      "data is {units, total, returned} as the public gateway's clients read it, rows with organization_id, Navn and Udir's own " +
      'flag names (ErGrunnskole; ErGrunnSkole and ErPrivatSkole as the first API spelled them too); limit is honoured up to 1000.',
    // The result is kept briefly: positions read in the background show up in the next answer.
    cacheTtlSeconds: 300,
    datasets: [udirEnheter],

    async run(params, ctx) {
      let otherLeftOut = 0
      const keep = (unit: ListedUnit) => {
        const flags = withFlagAliases(unit.flags)
        if (!isSchool(unit.flags)) return false
        if (!params.include_inactive && !unit.active) return false
        if (!matchesName(unit, params.query)) return false
        if (!wants(params.grunnskole, flags.ErGrunnskole)) return false
        if (!wants(params.videregaende, flags.ErVideregaaendeSkole)) return false
        if (!wants(params.privat, flags.ErPrivatskole)) return false
        if (!params.include_other_schools && schoolTypeOf(unit.flags) === 'annen') {
          otherLeftOut++
          return false
        }
        return true
      }
      const { area, list, matching, page, client, positions, from } = await searchPage(deps, ctx, 'nsr', params, keep)
      const rows = page.map((unit) => toSchoolRow(unit, positions))
      return {
        data: {
          units: rows,
          ...summary(rows, matching.length, area, list.readAt, from),
          other_schools_left_out: otherLeftOut,
        },
        page: { hasMore: params.offset + rows.length < matching.length, total: matching.length },
        ...(from === 'requests' ? { sourceApi: client.url(`/enheter/${area.area.kind}/${area.area.number}`) } : {}),
        ...cappedBy(list),
      }
    },
    entities: (data) => data.units.map((u) => ({ type: 'school', id: u.organization_id, name: u.Navn })),
  })
}

/**
 * Builds `search_kindergartens` over one source instance's register.
 *
 * @example
 * const searchKindergartens = createSearchKindergartens(deps)
 */
export function createSearchKindergartens(deps: SearchUnitsDeps) {
  return defineOperation({
    description:
      "Kindergartens of a municipality (or county) from Udir's national kindergarten register (NBR): name, the flags " +
      'clients read (ErPrivatBarnehage, ErOffentligBarnehage, ErAktiv), address and WGS84 position. Kindergarten owners and ' +
      "other units of the register are left out. Positions are only in each kindergarten's own record: with the " +
      'udir_enheter dataset loaded (positions_from "dataset") every row comes from it, no call to Udir; without it the ' +
      'gateway reads the records in the background within its request budget and keeps them for 30 days, so a first call ' +
      'may answer rows with coordinates_status "pending" (counted in coordinates_pending) that a later call answers with lat/lon.',
    parameters: {
      kommunenr: kommunenrParameter,
      fylkenr: fylkenrParameter,
      query: queryParameter,
      privat: optionalFlag('true: only private kindergartens; false: only public ones'),
      include_inactive: includeInactive,
    },
    limit: { default: 100, max: MAX_LIMIT },
    output: v.object({ units: v.array(kindergartenRow), ...areaOutput }),
    list: 'units',
    canonicalFieldAliases: { name: ['units[].Navn'], latitude: ['units[].lat'], longitude: ['units[].lon'] },
    shapeNote:
      "data is {units, total, returned} as the public gateway's clients read it, rows with organization_id, Navn and Udir's own " +
      'flag names (ErPrivatBarnehage, ErOffentligBarnehage); limit is honoured up to 1000.',
    cacheTtlSeconds: 300,
    datasets: [udirEnheter],

    async run(params, ctx) {
      const keep = (unit: ListedUnit) => {
        if (!isKindergarten(unit.flags)) return false
        if (!params.include_inactive && !unit.active) return false
        if (!matchesName(unit, params.query)) return false
        if (!wants(params.privat, unit.flags.ErPrivatBarnehage)) return false
        return true
      }
      const { area, list, matching, page, client, positions, from } = await searchPage(deps, ctx, 'nbr', params, keep)
      const rows = page.map((unit) => toKindergartenRow(unit, positions))
      return {
        data: { units: rows, ...summary(rows, matching.length, area, list.readAt, from) },
        page: { hasMore: params.offset + rows.length < matching.length, total: matching.length },
        ...(from === 'requests' ? { sourceApi: client.url(`/enheter/${area.area.kind}/${area.area.number}`) } : {}),
        ...cappedBy(list),
      }
    },
    entities: (data) => data.units.map((u) => ({ type: 'kindergarten', id: u.organization_id, name: u.Navn })),
  })
}
