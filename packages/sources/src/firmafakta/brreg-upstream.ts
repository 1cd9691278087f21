/** The upstream id of Enhetsregisteret; the example servers read `ALLMENNING_UPSTREAM_BRREG`. */
export const BRREG_UPSTREAM_ID = 'brreg'

/** The public open-data API of Enhetsregisteret. */
export const BRREG_DEFAULT_BASE_URL = 'https://data.brreg.no/enhetsregisteret/api'

/**
 * Accept headers that pin each resource's major version. Without one Brønnøysund answers the
 * latest version, so a future v3 would silently change field shapes under the mapping code.
 */
export const BRREG_ACCEPT = {
  enhet: 'application/vnd.brreg.enhetsregisteret.enhet.v2+json;charset=UTF-8',
  underenhet: 'application/vnd.brreg.enhetsregisteret.underenhet.v2+json;charset=UTF-8',
  rolle: 'application/vnd.brreg.enhetsregisteret.rolle.v1+json;charset=UTF-8',
} as const

/** Which pinned media type a call asks for. */
export type BrregResource = keyof typeof BRREG_ACCEPT

/** The header set for one resource kind; lower-case so it replaces the client's default `accept`. */
export function brregHeaders(resource: BrregResource): Record<string, string> {
  return { accept: BRREG_ACCEPT[resource] }
}
