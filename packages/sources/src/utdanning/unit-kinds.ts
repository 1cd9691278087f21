import { withFlagAliases, type UnitFlags } from './unit-payloads.js'

/**
 * Whether a unit of the school register is one `search_schools` can show: registered as a
 * school (or flagged grunnskole or videregående), owners left out.
 *
 * @example
 * isSchool({ ErSkole: true, ErGrunnskole: true }) // true
 */
export function isSchool(flags: UnitFlags): boolean {
  const f = withFlagAliases(flags)
  if (f.ErSkole === false) return false
  return f.ErSkole === true || f.ErGrunnskole === true || f.ErVideregaaendeSkole === true
}

/**
 * Whether a unit of the kindergarten register is a kindergarten (not an owner).
 *
 * @example
 * isKindergarten({ ErBarnehage: true }) // true
 */
export function isKindergarten(flags: UnitFlags): boolean {
  if (flags.ErBarnehage === false) return false
  return flags.ErBarnehage === true || flags.ErPrivatBarnehage === true || flags.ErOffentligBarnehage === true
}
