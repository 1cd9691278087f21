import { UpstreamError, type UpstreamClient, type UpstreamCallOptions } from '../../index.js'

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

/** An answer whose body may be absent: Brønnøysund's 404s are not promised to carry JSON. */
export interface LenientJsonResponse {
  status: number
  url: string
  body: unknown
}

/**
 * GETs JSON but tolerates an empty or non-JSON body on the statuses in `acceptStatus`
 * (`body` is then `undefined`). `getJson` would turn an empty 404 into a 502, although a 404
 * is a perfectly good answer ("no such entity").
 *
 * @example
 * const res = await getJsonLenient(ctx.upstream('brreg'), '/enheter/976030788', { acceptStatus: [404, 410] })
 * if (res.status === 404) throw new GatewayError(404, 'entity_not_found', '...')
 */
export async function getJsonLenient(
  client: UpstreamClient,
  path: string,
  options: UpstreamCallOptions,
): Promise<LenientJsonResponse> {
  const res = await client.getText(path, options)
  const ok = res.status >= 200 && res.status < 300
  const text = res.body.trim()
  if (text === '') {
    if (ok) throw new UpstreamError(client, 'invalid_response', 'answered an empty body where JSON was expected')
    return { status: res.status, url: res.url, body: undefined }
  }
  try {
    return { status: res.status, url: res.url, body: JSON.parse(text) as unknown }
  } catch {
    if (ok) throw new UpstreamError(client, 'invalid_response', 'answered a body that is not valid JSON')
    return { status: res.status, url: res.url, body: undefined }
  }
}
