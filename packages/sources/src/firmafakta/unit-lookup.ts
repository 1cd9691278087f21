import type { UpstreamClient } from '@allmenning/core/source'
import { brregHeaders } from './brreg-upstream.js'
import { brregUnitSchema, parseBrreg } from './brreg-payloads.js'
import { toEnhetsdetaljer, type Enhetsdetaljer } from './enhet-mapping.js'

/** A unit as looked up, and the URL that answered it. */
export interface UnitLookup {
  details: Enhetsdetaljer
  url: string
}

const paths = { hovedenhet: '/enheter', underenhet: '/underenheter' } as const
const resources = { hovedenhet: 'enhet', underenhet: 'underenhet' } as const

/**
 * Looks up one main entity or sub-unit. A deleted unit comes back as `removed` whichever way
 * Brønnøysund says it: the 200 with `respons_klasse` `SlettetEnhet`/`SlettetUnderEnhet` it
 * really sends, or the documented 410 with a short body. Undefined when the number is not a
 * unit of that kind (404, with or without a body).
 *
 * @example
 * const found = await lookUpUnit(ctx.upstream(brreg), 'hovedenhet', '976030788')
 * found?.details.status // 'active'
 */
export async function lookUpUnit(
  client: UpstreamClient,
  enhetstype: Enhetsdetaljer['enhetstype'],
  orgNr: string,
): Promise<UnitLookup | undefined> {
  const res = await client.getJson(`${paths[enhetstype]}/${orgNr}`, {
    headers: brregHeaders(resources[enhetstype]),
    acceptStatus: [404, 410],
  })
  if (res.status === 404) return undefined
  const gone = res.status === 410
  const unit = parseBrreg(brregUnitSchema, res.body, client, gone ? 'a removed unit' : `a unit (${enhetstype})`)
  return { details: toEnhetsdetaljer(unit, enhetstype, gone), url: res.url }
}
