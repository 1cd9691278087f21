import type { EntityInput } from '@allmenning/core/source'

/**
 * The entity of an organisation number, pointing at `selskapsdetaljer`, the operation that
 * tells the most about any unit (main entity or sub-unit).
 *
 * @example
 * organizationEntity('976030788', 'SESAM AS')
 * // { type: 'organization', id: '976030788', name: 'SESAM AS' }
 */
export function organizationEntity(orgNr: string, name?: string | null): EntityInput {
  return {
    type: 'organization',
    id: orgNr,
    ...(name ? { name } : {}),
  }
}
