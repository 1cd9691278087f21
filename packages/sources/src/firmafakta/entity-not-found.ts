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
