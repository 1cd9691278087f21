import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { radiusKmParameter } from '../shared/radius-parameter.js'
import { pointParameters } from '../shared/wgs84-point.js'
import { artskartApi } from './artskart-upstream.js'
import type { ObservationDeps } from './find-observations.js'
import { MAX_PAGES, observationListFields, observationWindowParameters, readObservations } from './observation-query.js'
import { speciesObservationsPlaceField } from './place-fields.js'
import { boxAround } from './search-area.js'

/**
 * Builds `find_observations_nearby`: the species observations within a radius of a point, the
 * operation behind the `species_observations` place field.
 *
 * @example
 * const nearby = createFindObservationsNearby(deps)
 */
export function createFindObservationsNearby(deps: ObservationDeps) {
  return defineOperation({
    description:
      "Species observations reported to Artsdatabanken's Artskart within radius_km of a WGS84 point between from_date and " +
      'to_date (the last 7 days by default), in the order Artskart lists them (oldest first), each with its distance from the ' +
      `point. One answer reads at most ${MAX_PAGES} pages of page_size rows and says so in _meta.capped when there were more.`,
    parameters: {
      ...pointParameters(3),
      radius_km: radiusKmParameter({ fallback: 1, max: 10 }),
      ...observationWindowParameters,
    },
    limit: { default: 100, max: 2000 },
    output: v.object({
      ...observationListFields,
      radius_km: v.pipe(v.number(), v.description('The radius searched, in kilometres')),
    }),
    list: 'observations',
    placeField: speciesObservationsPlaceField,
    canonicalFieldAliases: {
      name: ['observations[].name'],
      timestamp: ['observations[].collected_date'],
      latitude: ['observations[].latitude'],
      longitude: ['observations[].longitude'],
    },
    shapeNote:
      'The rows of find_observations, with distance_km from the point; not an operation of the public gateway.',
    cacheTtlSeconds: 3600,

    async run(params, ctx) {
      const point = { lat: params.lat, lon: params.lon }
      const area = {
        kind: 'point' as const,
        point,
        radiusKm: params.radius_km,
        box: boxAround(point, params.radius_km),
      }
      const result = await readObservations(ctx.upstream(artskartApi), deps.budget, area, params)
      return { ...result, data: { ...result.data, radius_km: params.radius_km } }
    },
  })
}
