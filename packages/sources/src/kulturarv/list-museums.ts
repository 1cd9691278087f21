import * as v from 'valibot'
import { defineOperation, upstreamNotConfigured } from '@allmenning/core/source'
import { DIMU_KEY_VARIABLE, DIMU_PATHS, dimuApi } from './kulturarv-upstreams.js'
import { ownerKey } from './museum-owners.js'
import type { MuseumDeps } from './search-museum-objects.js'

/**
 * Builds `list_museums` with the deployment's DigitaltMuseum key (or none).
 *
 * @example
 * const op = createListMuseums({ apiKey: process.env.ALLMENNING_DIMU_API_KEY, owners: createOwnerList() })
 * // GET /api/v1/kilder/kulturarv/list_museums?query=folkemuseum
 */
export function createListMuseums(deps: MuseumDeps) {
  return defineOperation({
    description:
      'The Norwegian museums and collections in DigitaltMuseum, with the code (owner) that search_museum_objects takes: ' +
      'NF for Norsk Folkemuseum, NMK-A, NMK-B, NMK-D for the National Museum’s collections. query keeps those whose name or ' +
      'code contains the text. The list is read once a day. Needs a DigitaltMuseum API key (ALLMENNING_DIMU_API_KEY).',
    parameters: {
      query: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(2, 'must be at least 2 characters'),
          v.maxLength(100, 'must be at most 100 characters'),
          v.description('Text in the museum’s name or code, e.g. folkemuseum, NMK'),
        ),
      ),
    },
    limit: { default: 100, max: 1000 },
    output: v.object({
      museums: v.array(
        v.object({
          owner: v.pipe(v.string(), v.description('The code search_museum_objects takes as owner, e.g. NF')),
          name: v.pipe(v.nullable(v.string()), v.description('Name of the museum or collection')),
          parent: v.pipe(
            v.nullable(v.string()),
            v.description('Code of the museum a collection belongs to, e.g. NMK for NMK-A'),
          ),
        }),
      ),
      count: v.pipe(v.number(), v.description('Museums matched: the whole list before limit and offset')),
    }),
    list: 'museums',
    canonicalFieldAliases: { name: ['museums[].name'] },
    // Museums join DigitaltMuseum a few times a year.
    cacheTtlSeconds: 24 * 3600,

    async run(params, ctx) {
      const client = ctx.upstream(dimuApi)
      if (!deps.apiKey) throw upstreamNotConfigured(client, DIMU_KEY_VARIABLE)
      const owners = await deps.owners.get(client, deps.apiKey)
      const key = params.query ? ownerKey(params.query) : ''
      const matching = owners.filter(
        (o) => key === '' || ownerKey(o.code).includes(key) || (o.name !== null && ownerKey(o.name).includes(key)),
      )
      const museums = matching
        .map((o) => ({ owner: o.code, name: o.name, parent: o.parent }))
        .sort((a, b) => (a.name ?? a.owner).localeCompare(b.name ?? b.owner, 'nb'))
      return {
        data: { museums, count: museums.length },
        sourceApi: client.url(DIMU_PATHS.owners, { country: 'no', 'api.key': '***' }),
      }
    },
  })
}
