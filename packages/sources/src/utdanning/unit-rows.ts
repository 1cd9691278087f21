import * as v from 'valibot'
import { withFlagAliases, type ListedUnit } from './unit-payloads.js'
import type { KnownPosition, PositionState } from './unit-register.js'

/** How far a row's position is known: `not_synced` when the dataset is loaded but its sync reads no record of the unit. */
export type CoordinatesStatus = PositionState | 'not_synced'

/** Where rows find their units' positions: the register's memory (read at request time) or the `udir_enheter` dataset. */
export interface PositionSource {
  state(unit: ListedUnit): CoordinatesStatus
  position(orgnr: string): KnownPosition | undefined
}

const flag = (what: string) => v.pipe(v.nullable(v.boolean()), v.description(what))

const addressSchema = v.pipe(
  v.nullable(
    v.object({ Adresse: v.nullable(v.string()), Postnr: v.nullable(v.string()), Poststed: v.nullable(v.string()) }),
  ),
  v.description(
    'Where the unit is (Beliggenhetsadresse), from its own record; null until that is read, or when it has none',
  ),
)

/** The fields every row has, school or kindergarten. */
const commonFields = {
  organization_id: v.pipe(v.string(), v.description('Organisation number (9 digits), the id get_unit takes')),
  Navn: v.pipe(v.string(), v.description('Name, as the register writes it')),
  FulltNavn: v.pipe(v.nullable(v.string()), v.description('Full name, when the register gives one')),
  Kommunenr: v.pipe(v.nullable(v.string()), v.description('Municipality number (4 digits)')),
  Fylkesnr: v.pipe(v.nullable(v.string()), v.description('County number (2 digits)')),
  ErAktiv: v.pipe(v.boolean(), v.description('Whether the unit is in operation (false: closed down)')),
  address: v.pipe(
    v.nullable(v.string()),
    v.description('"Street 1, 0123 TOWN": the unit\'s location as one line, when known'),
  ),
  Beliggenhetsadresse: addressSchema,
  lat: v.pipe(
    v.nullable(v.number()),
    v.description("WGS84 latitude from the unit's record; null when not known (see coordinates_status)"),
  ),
  lon: v.pipe(
    v.nullable(v.number()),
    v.description("WGS84 longitude from the unit's record; null when not known (see coordinates_status)"),
  ),
  coordinates_status: v.pipe(
    v.picklist(['known', 'none', 'pending', 'not_synced']),
    v.description(
      "known: lat/lon from the unit's record; none: the record has no position; pending: the record is not read yet " +
        "(without the udir_enheter dataset, positions are read from each unit's own record in the background: ask again " +
        'shortly); not_synced: the dataset is loaded, and its sync reads no record of this unit (closed units, owners)',
    ),
  ),
  DatoEndret: v.pipe(v.nullable(v.string()), v.description('When the register last changed the unit (ISO 8601)')),
}

/** One school as `search_schools` answers it. */
export const schoolRow = v.object({
  ...commonFields,
  ErSkole: flag('Registered as a school'),
  ErGrunnskole: flag('Primary or lower secondary school (grunnskole)'),
  ErGrunnSkole: flag('ErGrunnskole as the first NSR API and its clients spell it'),
  ErVideregaaendeSkole: flag('Upper secondary school (videregående)'),
  ErPrivatskole: flag('Private school'),
  ErPrivatSkole: flag('ErPrivatskole as the first NSR API and its clients spell it'),
  ErOffentligSkole: flag('Public school'),
  ErSpesialskole: flag('Special school'),
  school_type: v.pipe(
    v.picklist(['grunnskole', 'videregaende', 'grunnskole_og_videregaende', 'annen']),
    v.description(
      'grunnskole, videregaende, both, or annen: a unit Udir registers as a school that is neither (a fagskole, ' +
        'a culture school, adult education, a sports academy or gym)',
    ),
  ),
})

/** One kindergarten as `search_kindergartens` answers it. */
export const kindergartenRow = v.object({
  ...commonFields,
  ErBarnehage: flag('Registered as a kindergarten'),
  ErPrivatBarnehage: flag('Private kindergarten'),
  ErOffentligBarnehage: flag('Public kindergarten'),
})

export type SchoolRow = v.InferOutput<typeof schoolRow>
export type KindergartenRow = v.InferOutput<typeof kindergartenRow>

/**
 * What kind of school a unit is, from its flags.
 *
 * @example
 * schoolTypeOf({ ErGrunnskole: true }) // 'grunnskole'
 */
export function schoolTypeOf(flags: Record<string, boolean>): SchoolRow['school_type'] {
  const f = withFlagAliases(flags)
  const gs = f.ErGrunnskole === true
  const vgs = f.ErVideregaaendeSkole === true
  return gs && vgs ? 'grunnskole_og_videregaende' : gs ? 'grunnskole' : vgs ? 'videregaende' : 'annen'
}

function common(unit: ListedUnit, register: PositionSource) {
  const status = register.state(unit)
  const position = status === 'known' || status === 'none' ? register.position(unit.orgnr)?.position : undefined
  const where = position?.address ?? null
  const line = where?.Adresse
    ? [where.Adresse, [where.Postnr, where.Poststed].filter(Boolean).join(' ')].filter(Boolean).join(', ')
    : null
  return {
    organization_id: unit.orgnr,
    Navn: unit.name,
    FulltNavn: unit.fullName,
    Kommunenr: unit.municipalityNumber,
    Fylkesnr: unit.countyNumber,
    ErAktiv: unit.active,
    address: line,
    Beliggenhetsadresse: where,
    lat: position?.lat ?? null,
    lon: position?.lon ?? null,
    coordinates_status: status,
    DatoEndret: unit.changedAt,
  }
}

const f = (flags: Record<string, boolean>, key: string) => flags[key] ?? null

/**
 * A listed school as a row, with its position as far as it is known.
 *
 * @example
 * toSchoolRow(unit, store).ErGrunnskole // true
 */
export function toSchoolRow(unit: ListedUnit, register: PositionSource): SchoolRow {
  const flags = withFlagAliases(unit.flags)
  return {
    ...common(unit, register),
    ErSkole: f(flags, 'ErSkole'),
    ErGrunnskole: f(flags, 'ErGrunnskole'),
    ErGrunnSkole: f(flags, 'ErGrunnSkole'),
    ErVideregaaendeSkole: f(flags, 'ErVideregaaendeSkole'),
    ErPrivatskole: f(flags, 'ErPrivatskole'),
    ErPrivatSkole: f(flags, 'ErPrivatSkole'),
    ErOffentligSkole: f(flags, 'ErOffentligSkole'),
    ErSpesialskole: f(flags, 'ErSpesialskole'),
    school_type: schoolTypeOf(unit.flags),
  }
}

/**
 * A listed kindergarten as a row, with its position as far as it is known.
 *
 * @example
 * toKindergartenRow(unit, store).ErPrivatBarnehage // false
 */
export function toKindergartenRow(unit: ListedUnit, register: PositionSource): KindergartenRow {
  return {
    ...common(unit, register),
    ErBarnehage: f(unit.flags, 'ErBarnehage'),
    ErPrivatBarnehage: f(unit.flags, 'ErPrivatBarnehage'),
    ErOffentligBarnehage: f(unit.flags, 'ErOffentligBarnehage'),
  }
}
