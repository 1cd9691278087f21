import * as v from 'valibot'
import type { RouteParameters } from '../routing/define-route.js'

/** Query parameters of `/api/v1/sok/alle` (spec 4.1). */
export const searchQuery = {
  q: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200), v.description('The search text.')),
  limit: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10), v.description('Maximum total results.')),
    5,
  ),
  sources: v.optional(v.pipe(v.string(), v.maxLength(500), v.description('Comma-separated source ids to search.'))),
  mode: v.optional(
    v.pipe(
      v.picklist(['auto', 'source_discovery', 'entities', 'all']),
      v.description(
        'auto routes by itself (a source named, a recognisable identifier, else entities); source_discovery searches the catalogue only; entities searches entities only; all does both.',
      ),
    ),
    'auto',
  ),
}

/** Parameters of `/api/v1/sok/alle`, validated. */
export type SearchParameters = RouteParameters<typeof searchQuery>
