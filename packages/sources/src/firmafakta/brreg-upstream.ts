import { defineUpstream } from '@allmenning/core/source'

/** The public open-data API of Enhetsregisteret; `ALLMENNING_UPSTREAM_BRREG` overrides it in the examples. */
export const brreg = defineUpstream({
  id: 'brreg',
  name: 'Brønnøysundregistrene Enhetsregisteret',
  baseUrl: 'https://data.brreg.no/enhetsregisteret/api',
  publisher: 'Brønnøysundregistrene',
  license: 'NLOD 2.0',
  // A search page of 100 units is about 150 kB and a large company's roles about 50 kB; 512 KiB
  // holds three times that and still parses in well under 50 ms.
  maxBodyBytes: 512 * 1024,
})

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
