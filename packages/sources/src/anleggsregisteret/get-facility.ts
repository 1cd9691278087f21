import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { anleggsregisteretApi } from './anleggsregisteret-upstream.js'
import { FACILITIES_PATH, PAGE_SIZE, type FacilityRegisterCache } from './facility-register.js'
import { facilitySchema, toRow } from './facility-row.js'

/**
 * Builds `get_facility`: one facility of the register by its number, what a facility entity
 * links to.
 *
 * @example
 * const getFacility = createGetFacility(deps.register)
 */
export function createGetFacility(register: FacilityRegisterCache) {
  return defineOperation({
    description:
      "One facility of Anleggsregisteret by its facility number (the id of find_facilities' rows), with type, status, owner, " +
      'operator and position; 404 entity_not_found when the register has no such facility.',
    parameters: {
      id: v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^\d{1,9}$/, 'must be a facility number: 1 to 9 digits'),
        v.transform(Number),
        v.description("The register's facility number (anleggsnummer), e.g. 123456"),
      ),
    },
    output: facilitySchema,
    canonicalFieldAliases: { name: ['name'], latitude: ['lat'], longitude: ['lon'] },
    shapeNote: 'One row of find_facilities; not an operation of the public gateway.',
    cacheTtlSeconds: 3 * 3600,

    async run(params, ctx) {
      const client = ctx.upstream(anleggsregisteretApi)
      const read = await register.get(client)
      const found = read.facilities.find((f) => f.id === params.id)
      if (!found)
        throw new GatewayError(404, 'entity_not_found', `Anleggsregisteret has no facility numbered ${params.id}`)
      return { data: toRow(found), sourceApi: client.url(FACILITIES_PATH, { page: 0, size: PAGE_SIZE }) }
    },
  })
}
