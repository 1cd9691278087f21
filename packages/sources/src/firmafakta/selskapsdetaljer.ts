import { defineOperation, type UpstreamClient, type UpstreamResponse } from '@allmenning/core'
import { brreg, brregHeaders } from './brreg-upstream.js'
import { brregUnitSchema, parseBrreg } from './brreg-payloads.js'
import { enhetsdetaljerSchema, toEnhetsdetaljer, type Enhetsdetaljer } from './enhet-mapping.js'
import { entityNotFound } from './entity-not-found.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'

function toDetails(client: UpstreamClient, res: UpstreamResponse<unknown>, enhetstype: Enhetsdetaljer['enhetstype']): Enhetsdetaljer {
  // 410 "Enheten er fjernet" carries a short body (number, name, form, slettedato). It is a
  // true answer about the company, so it becomes data, not an error page.
  const removed = res.status === 410
  const unit = parseBrreg(brregUnitSchema, res.body, client, removed ? 'a removed entity' : 'an entity')
  return toEnhetsdetaljer(unit, enhetstype, removed ? 'removed' : 'active')
}

/**
 * `selskapsdetaljer`: the register facts of one organisation number. Main entities are looked
 * up first; a number Brønnøysund does not know as a main entity is tried as a sub-unit, so
 * the branches `underenheter_for_selskap` lists can be followed up here too.
 *
 * @example
 * const { data } = await selskapsdetaljer.run({ org_nr: '976030788', limit: 25, offset: 0 }, ctx)
 * data.navn // 'SESAM AS'
 */
export const selskapsdetaljer = defineOperation({
  name: 'selskapsdetaljer',
  description:
    'Register facts about one organisation number from Enhetsregisteret: name, organisation form, addresses, ' +
    'industry codes, employees, registrations and bankruptcy or winding-up state. Sub-units (branches) are ' +
    'answered too. A unit removed from the register is answered with status "removed" and its slettedato; ' +
    'an unknown number is a 404.',
  parameters: { org_nr: orgNrSchema },
  output: enhetsdetaljerSchema,
  shapeNote:
    'Spec 2.4 leaves data open; it keeps Brønnøysund\'s own field names (naeringskode1, antallAnsatte, ' +
    'forretningsadresse, ...), which clients of the public gateway read, with status and naeringskoder added beside them.',
  canonicalFieldAliases: { name: ['navn'] },
  // Reads no dataset, so an import leaves its cached answers alone.
  datasets: [],
  async run(params, ctx) {
    const client = ctx.upstream(brreg)
    const main = await client.getJson(`/enheter/${params.org_nr}`, {
      headers: brregHeaders('enhet'),
      acceptStatus: [404, 410],
    })
    if (main.status !== 404) return { data: toDetails(client, main, 'hovedenhet'), sourceApi: main.url }
    const sub = await client.getJson(`/underenheter/${params.org_nr}`, {
      headers: brregHeaders('underenhet'),
      acceptStatus: [404, 410],
    })
    if (sub.status === 404) throw entityNotFound(params.org_nr)
    return { data: toDetails(client, sub, 'underenhet'), sourceApi: sub.url }
  },
  entities(data) {
    const entities = [organizationEntity(data.organisasjonsnummer, data.navn)]
    if (data.overordnetEnhet) entities.push(organizationEntity(data.overordnetEnhet))
    return entities
  },
})
