import type { EntitySearch } from '@allmenning/core'
import type { Enhetsdetaljer } from './enhet-mapping.js'
import { isValidOrganisationNumber } from './org-nr.js'

type Hit = { navn: string; organisasjonsnummer: string; beskrivelse: string }

/** Nine digits, as people write them (`976 030 788` too), passing the MOD11 check. */
function organisationNumberIn(text: string): string | undefined {
  const digits = text.replace(/[\s.]/g, '')
  return /^\d{9}$/.test(digits) && isValidOrganisationNumber(digits) ? digits : undefined
}

function describeDetails(unit: Enhetsdetaljer): string {
  const form = unit.organisasjonsform?.beskrivelse
  const place = unit.forretningsadresse?.kommune ?? unit.beliggenhetsadresse?.kommune
  const removed = unit.status === 'removed' ? ' (removed from the register)' : ''
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
      return { hits: [{ type: 'organization', id: unit.organisasjonsnummer, name: unit.navn, description: describeDetails(unit) }] }
    }
    // Brønnøysund's name search takes two characters or more.
    if (text.trim().length < 2) return { hits: [] }
    const hits = (await ctx.call('organisasjonsnummer_for_selskap', { company_name: text.slice(0, 100), limit: ctx.limit })) as Hit[]
    return { hits: hits.map((hit) => ({ type: 'organization', id: hit.organisasjonsnummer, name: hit.navn, description: hit.beskrivelse })) }
  },
}
