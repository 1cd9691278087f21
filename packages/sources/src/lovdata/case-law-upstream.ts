import { defineUpstream } from '@allmenning/core/source'

/** The public address of domstol.no; page URLs in answers are always on it. */
export const DOMSTOL_ORIGIN = 'https://www.domstol.no'

/**
 * domstol.no, where Høyesterett publishes its decisions; `ALLMENNING_UPSTREAM_DOMSTOL`
 * overrides it in the examples. Court decisions are not protected by copyright
 * (åndsverkloven § 14).
 */
export const domstolSite = defineUpstream({
  id: 'domstol',
  name: 'domstol.no',
  baseUrl: DOMSTOL_ORIGIN,
  publisher: 'Norges Høyesterett (domstol.no)',
  license: 'Not protected by copyright (åndsverkloven § 14)',
  // A decision's PDF runs to a few megabytes (a plenary one more); pages stay far below this.
  maxBodyBytes: 16 * 1024 * 1024,
})

/** The entity type of a decision; the source links it to `get_case_law` by `ref`. */
export const DECISION_ENTITY = 'court_decision'

/**
 * An entity for one Høyesterett decision.
 *
 * @example
 * decisionEntity({ hr_number: 'HR-2025-844-A', title: 'Ekspropriasjon av vegrett' })
 */
export function decisionEntity(decision: { hr_number: string; title: string }) {
  return { type: DECISION_ENTITY, id: decision.hr_number, name: decision.title }
}
