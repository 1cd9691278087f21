/** The upstream id the case-law operations reach domstol.no by. */
export const DOMSTOL_UPSTREAM_ID = 'domstol'

/**
 * An entity for one Høyesterett decision, linked to `get_case_law`.
 *
 * @example
 * decisionEntity({ hr_number: 'HR-2025-844-A', title: 'Ekspropriasjon av vegrett' })
 */
export function decisionEntity(decision: { hr_number: string; title: string }) {
  return {
    type: 'court_decision',
    id: decision.hr_number,
    name: decision.title,
    more: { operation: 'get_case_law', parameters: { ref: decision.hr_number } },
  }
}
