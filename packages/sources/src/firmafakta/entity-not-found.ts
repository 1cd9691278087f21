import { GatewayError } from '@allmenning/core'

/**
 * The 404 for an organisation number Enhetsregisteret does not know. It names the number and
 * the register, so a client can tell "no such company" from "no such operation".
 *
 * @example
 * if (res.status === 404) throw entityNotFound('912345602')
 */
export function entityNotFound(orgNr: string): GatewayError {
  return new GatewayError(404, 'entity_not_found', `No entity with organisation number ${orgNr} in Enhetsregisteret`)
}

/**
 * The 404 for the roles of a sub-unit: Enhetsregisteret keeps roles on main entities only, so
 * the message points at the main entity instead of saying the number is unknown (which
 * `selskapsdetaljer` would contradict).
 *
 * @example
 * throw subUnitHasNoRoles('812345737', '912346021')
 */
export function subUnitHasNoRoles(orgNr: string, parent: string | null): GatewayError {
  const where = parent ? `its main entity ${parent}` : 'its main entity'
  return new GatewayError(
    404,
    'entity_not_found',
    `${orgNr} is a sub-unit in Enhetsregisteret, which has no roles of its own; roles are registered on ${where}`,
  )
}
