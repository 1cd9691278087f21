import { defineOperation } from '@allmenning/core/source'
import { brreg } from './brreg-upstream.js'
import { enhetsdetaljerSchema } from './enhet-mapping.js'
import { entityNotFound } from './entity-not-found.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'
import { lookUpUnit } from './unit-lookup.js'

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
  description:
    'Register facts about one organisation number from Enhetsregisteret: name, organisation form, addresses, ' +
    'industry codes, employees, capital, earlier names, registrations and bankruptcy, winding-up or forced ' +
    'dissolution state. Sub-units (branches) are answered too. A unit deleted from the register is answered ' +
    '(200) with status "removed", its slettedato (sub-units also nedleggelsesdato) and the little else the ' +
    'register keeps; an unknown number is a 404.',
  parameters: { org_nr: orgNrSchema },
  output: enhetsdetaljerSchema,
  shapeNote:
    "Spec 2.4 leaves data open; it keeps Brønnøysund's own field names (naeringskode1, antallAnsatte, " +
    'forretningsadresse, ...), which clients of the public gateway read, with status and naeringskoder added beside them.',
  canonicalFieldAliases: { name: ['navn'] },
  // Reads no dataset, so an import leaves its cached answers alone.
  datasets: [],
  async run(params, ctx) {
    const client = ctx.upstream(brreg)
    // A deleted unit is a true answer about the company, so it becomes data, not an error page.
    const found =
      (await lookUpUnit(client, 'hovedenhet', params.org_nr)) ?? (await lookUpUnit(client, 'underenhet', params.org_nr))
    if (!found) throw entityNotFound(params.org_nr)
    return { data: found.details, sourceApi: found.url }
  },
  entities(data) {
    const entities = [organizationEntity(data.organisasjonsnummer, data.navn)]
    if (data.overordnetEnhet) entities.push(organizationEntity(data.overordnetEnhet))
    return entities
  },
})
