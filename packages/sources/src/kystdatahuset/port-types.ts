/**
 * Norwegian names of the register's `systemname` values, as the public gateway's `type`
 * field gives them ("Ferjekai" for FERRY_QUAY). A value Kystverket adds later is passed on as
 * it comes rather than dropped.
 */
const norwegianNames: Record<string, string> = {
  QUAY: 'Kai',
  FERRY_QUAY: 'Ferjekai',
  PORT_FACILITY: 'Havneanlegg',
  HARBOUR: 'Havn',
  ANCHORAGE: 'Ankringsplass',
  LOCATION_AT_SEA: 'Posisjon til sjøs',
  PILOT_BOARDING: 'Losbordingsfelt',
}

/** The register's location kinds, for the `type` filter. */
export const portSystemTypes = Object.keys(norwegianNames) as [string, ...string[]]

/**
 * The Norwegian name of a location kind.
 *
 * @example
 * portTypeName('FERRY_QUAY') // 'Ferjekai'
 */
export function portTypeName(systemName: string): string {
  return norwegianNames[systemName] ?? systemName
}
