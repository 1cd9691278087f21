import * as v from 'valibot'
import { defineOperation, type EntityInput } from '@allmenning/core/source'
import { brreg, brregHeaders } from './brreg-upstream.js'
import { brregRolesSchema, parseBrreg } from './brreg-payloads.js'
import { entityNotFound, subUnitHasNoRoles } from './entity-not-found.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'
import { personEntityId } from './person-id.js'
import { rollegruppeSchema, toRollegrupper } from './rolle-mapping.js'
import { lookUpUnit } from './unit-lookup.js'

/** `data` of `roller_i_enhet`. */
export const rollerIEnhetOutput = v.object({
  organisasjonsnummer: v.string(),
  status: v.pipe(v.picklist(['active', 'removed']), v.description('removed: the entity was deleted from the register')),
  slettedato: v.pipe(v.nullable(v.string()), v.description('The day the entity was deleted; null while it exists')),
  rollegrupper: v.array(rollegruppeSchema),
})

const removedBody = v.looseObject({ slettedato: v.nullish(v.string()) })

/**
 * `roller_i_enhet`: every role in one entity (board, chief executive, auditor, accountant,
 * partners, ...), whether held by a person or by another entity.
 *
 * @example
 * const { data } = await rollerIEnhet.run({ org_nr: '976030788', limit: 25, offset: 0 }, ctx)
 * data.rollegrupper[0]?.roller[0]?.fodselsaar // 1981
 */
export const rollerIEnhet = defineOperation({
  description:
    'Every role registered in Enhetsregisteret for one entity, grouped as the register groups them (board, ' +
    'chief executive, auditor, accountant, partners, ...). A role is held by a person or by another entity ' +
    '(innehaver "person" or "enhet"); resigned roles are kept and marked fratraadt. Of a person\'s birth date ' +
    'only the year (fodselsaar) is published: it is enough to tell namesakes apart, it is all that ' +
    "Brønnøysund's own public search shows, and publishing the full date would go beyond what the purpose " +
    'needs (GDPR data minimisation). The estate administrator of a bankrupt company (role BOBE) is held by ' +
    'innehaver "bostyrer", with name and postadresse. An entity deleted from the register is answered (200) ' +
    'with status "removed", its slettedato and no role groups. An unknown number is a 404, and so is a ' +
    'sub-unit, whose 404 names the main entity that holds the roles.',
  parameters: { org_nr: orgNrSchema },
  output: rollerIEnhetOutput,
  shapeNote: 'data is an object with rollegrupper, as spec 2.4 fixes it.',
  // Reads no dataset, so an import leaves its cached answers alone.
  datasets: [],
  async run(params, ctx) {
    const client = ctx.upstream(brreg)
    const res = await client.getJson(`/enheter/${params.org_nr}/roller`, {
      headers: brregHeaders('rolle'),
      acceptStatus: [404, 410],
    })
    if (res.status === 404) {
      // Brønnøysund answers the roles of a deleted entity with a bare 404, the same as for a
      // number it never knew. The entity itself tells the two apart, so a client is not told
      // "no such entity" here while selskapsdetaljer answers it.
      const unit = await lookUpUnit(client, 'hovedenhet', params.org_nr)
      if (!unit) {
        const sub = await lookUpUnit(client, 'underenhet', params.org_nr)
        throw sub ? subUnitHasNoRoles(params.org_nr, sub.details.overordnetEnhet) : entityNotFound(params.org_nr)
      }
      return {
        data: {
          organisasjonsnummer: params.org_nr,
          status: unit.details.status,
          slettedato: unit.details.slettedato,
          rollegrupper: [],
        },
        sourceApi: unit.url,
      }
    }
    if (res.status === 410) {
      const removed = v.safeParse(removedBody, res.body)
      return {
        data: {
          organisasjonsnummer: params.org_nr,
          status: 'removed' as const,
          slettedato: (removed.success ? removed.output.slettedato : null) ?? null,
          rollegrupper: [],
        },
      }
    }
    const body = parseBrreg(brregRolesSchema, res.body, client, 'the roles of an entity')
    return {
      data: {
        organisasjonsnummer: params.org_nr,
        status: 'active' as const,
        slettedato: null,
        rollegrupper: toRollegrupper(body),
      },
    }
  },
  entities(data) {
    const entities = new Map<string, EntityInput>()
    for (const group of data.rollegrupper) {
      for (const role of group.roller) {
        if (role.innehaver === 'enhet' && role.organisasjonsnummer) {
          entities.set(
            `organization:${role.organisasjonsnummer}`,
            organizationEntity(role.organisasjonsnummer, role.navn),
          )
        } else if (role.innehaver === 'person' && role.navn) {
          const id = personEntityId(role.navn, role.fodselsaar)
          // The register has no "roles of a person" lookup; the roles of the entity where the
          // person was found are what this source can tell about them.
          entities.set(`person:${id}`, {
            type: 'person',
            id,
            name: role.navn,
            linkParameters: { org_nr: data.organisasjonsnummer },
          })
        }
      }
    }
    return [...entities.values()]
  },
})
