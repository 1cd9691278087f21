import { GatewayError } from '@allmenning/core'
import {
  isDatasetNotLoaded,
  type EntityHit,
  type EntitySearch,
  type EntitySearchContext,
} from '@allmenning/core/source'
import type { Enhetsdetaljer } from './enhet-mapping.js'
import { isValidOrganisationNumber } from './org-nr.js'
import { personEntityId } from './person-id.js'

type Hit = { navn: string; organisasjonsnummer: string; beskrivelse: string }
type PersonLine = { navn: string; organisasjonsnummer: string; type: string; fodselsaar: number | null; kilde: string }

/** Nine digits, as people write them (`976 030 788` too), passing the MOD11 check. */
function organisationNumberIn(text: string): string | undefined {
  const digits = text.replace(/[\s.]/g, '')
  return /^\d{9}$/.test(digits) && isValidOrganisationNumber(digits) ? digits : undefined
}

function describeDetails(unit: Enhetsdetaljer): string {
  const form = unit.organisasjonsform?.beskrivelse
  const place = unit.forretningsadresse?.kommune ?? unit.beliggenhetsadresse?.kommune
  const removed =
    unit.status === 'removed' ? ` (removed from the register${unit.slettedato ? ` on ${unit.slettedato}` : ''})` : ''
  return [form, place ? `i ${place}` : undefined].filter(Boolean).join(' ') + removed
}

/**
 * Companies by organisation number or by name, through the source's own operations (so a
 * search reuses what `selskapsdetaljer` and `organisasjonsnummer_for_selskap` already cached).
 */
export const firmafaktaEntitySearch: EntitySearch = {
  recognize: (text) => (organisationNumberIn(text) ? 'organization_number' : undefined),
  async search(text, ctx) {
    const orgNr = organisationNumberIn(text)
    if (orgNr) {
      const unit = (await ctx.call('selskapsdetaljer', { org_nr: orgNr })) as Enhetsdetaljer
      return {
        hits: [
          { type: 'organization', id: unit.organisasjonsnummer, name: unit.navn, description: describeDetails(unit) },
        ],
      }
    }
    // Brønnøysund's name search takes two characters or more.
    if (text.trim().length < 2) return { hits: [] }
    const [companies, persons] = await Promise.all([
      ctx.call('organisasjonsnummer_for_selskap', { company_name: text.slice(0, 100), limit: ctx.limit }) as Promise<
        Hit[]
      >,
      personsNamed(text, ctx),
    ])
    const hits: EntityHit[] = companies.map((hit) => ({
      type: 'organization',
      id: hit.organisasjonsnummer,
      name: hit.navn,
      description: hit.beskrivelse,
    }))
    return { hits: [...hits, ...persons].slice(0, ctx.limit) }
  },
}

/**
 * Persons by name from the roles and shareholder datasets (`personinformasjon`), one hit per
 * person and unit. Where neither dataset is loaded there are simply no persons to find: the
 * companies are still searched live.
 */
async function personsNamed(text: string, ctx: EntitySearchContext): Promise<EntityHit[]> {
  let lines: PersonLine[]
  try {
    lines = (await ctx.call('personinformasjon', { person_name: text.slice(0, 100), limit: ctx.limit })) as PersonLine[]
  } catch (error) {
    if (isDatasetNotLoaded(error) || (error instanceof GatewayError && error.status === 400)) return []
    throw error
  }
  return lines.map((line) => ({
    type: 'person',
    id: personEntityId(line.navn, line.fodselsaar),
    name: line.navn,
    description: `${line.type} in ${line.organisasjonsnummer}${line.fodselsaar ? `, born ${line.fodselsaar}` : ''}`,
    linkParameters: { org_nr: line.organisasjonsnummer },
  }))
}
