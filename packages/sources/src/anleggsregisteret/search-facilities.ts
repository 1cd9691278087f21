import * as v from 'valibot'
import { defineOperation, rankByName } from '@allmenning/core/source'
import { anleggsregisteretApi } from './anleggsregisteret-upstream.js'
import { FACILITIES_PATH, PAGE_SIZE, type FacilityRegisterCache } from './facility-register.js'
import { facilitySchema, statusParameter, toRow } from './facility-row.js'

/**
 * Builds `search_facilities`: the register's facilities by name, best match first, over one
 * source instance's copy of the register; what the source's entity search asks.
 *
 * @example
 * const search = createSearchFacilities(deps.register)
 */
export function createSearchFacilities(register: FacilityRegisterCache) {
  return defineOperation({
    description:
      'Sports and cultural facilities from Anleggsregisteret by name, anywhere in Norway, best match first (whole name, start ' +
      'of the name, start of a word, then part of a word; Norwegian letters folded). Read from the same copy of the register ' +
      'as find_facilities, which answers 502 upstream_busy until it is read.',
    parameters: {
      query: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(2, 'must be at least 2 characters'),
        v.maxLength(100, 'must be at most 100 characters'),
        v.description('A name or part of one: "Jordal Amfi", "ishall"'),
      ),
      status: statusParameter,
    },
    limit: { default: 20, max: 200 },
    output: v.object({
      facilities: v.array(facilitySchema),
      count: v.pipe(v.number(), v.description('Facilities matched: the whole list before limit and offset')),
      register_read_at: v.pipe(v.string(), v.description('When the gateway last read the whole register (ISO 8601)')),
    }),
    list: 'facilities',
    canonicalFieldAliases: {
      name: ['facilities[].name'],
      latitude: ['facilities[].lat'],
      longitude: ['facilities[].lon'],
    },
    shapeNote: 'The rows of find_facilities; not an operation of the public gateway.',
    cacheTtlSeconds: 3 * 3600,

    async run(params, ctx) {
      const client = ctx.upstream(anleggsregisteretApi)
      const read = await register.get(client)
      const named = read.facilities.filter((f) => f.name !== null && (!params.status || f.status === params.status))
      const ranked = rankByName(params.query, named, (f) => ({ codes: [String(f.id)], names: [f.name!] })).map(
        ({ item }) => item,
      )
      return {
        data: {
          facilities: ranked.map(toRow),
          count: ranked.length,
          register_read_at: new Date(read.loadedAt).toISOString(),
        },
        sourceApi: client.url(FACILITIES_PATH, { page: 0, size: PAGE_SIZE }),
      }
    },
  })
}
