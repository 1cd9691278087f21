import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import type { OperationContext } from '@allmenning/core/source'
import {
  createMunicipalityLookup,
  kartverketKommuneinfo,
  municipalityNumberOf,
  municipalityParameter,
  resolveMunicipality,
  type MunicipalityLookup,
} from '../shared/kommuneinfo.js'
import type { UnitArea } from './unit-register.js'

/** `kommunenr`: a municipality by number (0301, 301) or name (Oslo). */
export const kommunenrParameter = v.optional(
  municipalityParameter('The municipality: its number (0301, or 301 as some clients send it) or its name (Oslo)'),
)

/** `fylkenr`: a county by number (03, 3). */
export const fylkenrParameter = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d{1,2}$/, 'must be a county number of 1 or 2 digits (03 or 3)'),
    v.transform((s) => s.padStart(2, '0')),
    v.description('The county (fylke) by number: 03 or 3 for Oslo; used when kommunenr is not given'),
  ),
)

/** The area asked for, and what to call it in the answer. */
export interface ResolvedArea {
  area: UnitArea
  kommunenr: string | null
  fylkenr: string | null
  name: string | null
}

/**
 * The area of a search: the municipality when `kommunenr` is given (a name is looked up in
 * Kartverket's register), else the county; a 400 naming both parameters when neither is.
 *
 * @example
 * await resolveArea({ kommunenr: 'Oslo' }, ctx, createMunicipalityLookup()) // { area: { kind: 'kommune', number: '0301' }, ... }
 */
export async function resolveArea(
  params: { kommunenr?: string | undefined; fylkenr?: string | undefined },
  ctx: OperationContext,
  lookup: MunicipalityLookup,
): Promise<ResolvedArea> {
  if (params.kommunenr !== undefined) {
    const number = municipalityNumberOf(params.kommunenr)
    if (number !== undefined) return { area: { kind: 'kommune', number }, kommunenr: number, fylkenr: null, name: null }
    const found = await resolveMunicipality(lookup, ctx.upstream(kartverketKommuneinfo), params.kommunenr)
    return {
      area: { kind: 'kommune', number: found.number },
      kommunenr: found.number,
      fylkenr: found.countyNumber,
      name: found.name,
    }
  }
  if (params.fylkenr !== undefined)
    return { area: { kind: 'fylke', number: params.fylkenr }, kommunenr: null, fylkenr: params.fylkenr, name: null }
  const problem = 'give kommunenr (0301, 301 or Oslo) or fylkenr (03 or 3): Udir lists units by municipality or county'
  throw new GatewayError(400, 'invalid_parameter', `Invalid parameter: kommunenr ${problem}`, {
    details: [
      { parameter: 'kommunenr', problem, rule: 'required' },
      { parameter: 'fylkenr', problem, rule: 'required' },
    ],
  })
}
