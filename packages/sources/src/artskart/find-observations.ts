import * as v from 'valibot'
import { defineOperation, UpstreamError } from '@allmenning/core/source'
import { kartverketKommuneinfo, resolveMunicipality, type MunicipalityLookup } from '../shared/kommuneinfo.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { artskartApi } from './artskart-upstream.js'
import { MAX_PAGES, observationListFields, observationWindowParameters, readObservations } from './observation-query.js'

/** What the observation operations are built over: one source instance's municipality lookup and Artskart request budget. */
export interface ObservationDeps {
  municipalities: MunicipalityLookup
  budget: RequestBudget
}

/**
 * Builds `find_observations`: the species observations of a municipality.
 *
 * @example
 * const findObservations = createFindObservations(deps)
 */
export function createFindObservations(deps: ObservationDeps) {
  return defineOperation({
    description:
      "Species observations reported to Artsdatabanken's Artskart (Artsobservasjoner, museums, surveys) in one municipality " +
      'between from_date and to_date (the last 7 days by default), each with its WGS84 position, Norwegian and scientific name, ' +
      'date, observer and a link to it. Artskart lists the oldest first; one answer reads at most ' +
      `${MAX_PAGES} pages of page_size rows and says so in _meta.capped when there were more. Rows whose coordinates cannot be ` +
      'used are left out and counted in skipped.',
    parameters: {
      municipality: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(60, 'must be at most 60 characters'),
        v.check(
          (s) => !/^\d+$/.test(s) || /^\d{3,4}$/.test(s),
          'must be a municipality number of 3 or 4 digits (301 or 0301), or a name',
        ),
        v.transform((s) => (/^\d{3}$/.test(s) ? s.padStart(4, '0') : s)),
        v.description(
          'The municipality: its number (0301, or 301 as the public gateway’s clients send it) or its name (Oslo)',
        ),
      ),
      ...observationWindowParameters,
    },
    limit: { default: 100, max: 2000 },
    output: v.object({
      ...observationListFields,
      municipality: v.pipe(
        v.object({ number: v.string(), name: v.string(), county: v.nullable(v.string()) }),
        v.description('The municipality searched, as Kartverket names it'),
      ),
    }),
    list: 'observations',
    canonicalFieldAliases: {
      name: ['observations[].name'],
      timestamp: ['observations[].collected_date'],
      latitude: ['observations[].latitude'],
      longitude: ['observations[].longitude'],
    },
    shapeNote:
      'data is {observations, count, total, …} with the row fields the public gateway’s clients read (obs_url, latitude and longitude ' +
      'as numbers, name, scientific_name, collected_date, collector) and its parameters municipality (301), from_date, limit and page_size.',
    // Observations come in all day; an hour keeps Artskart unburdened and the list recent enough.
    cacheTtlSeconds: 3600,

    async run(params, ctx) {
      const kommuneinfo = ctx.upstream(kartverketKommuneinfo)
      const municipality = await resolveMunicipality(deps.municipalities, kommuneinfo, params.municipality)
      if (!municipality.box) {
        throw new UpstreamError(
          kommuneinfo,
          'invalid_response',
          `gave no bounding box in degrees for municipality ${municipality.number}`,
        )
      }
      const area = { kind: 'municipality' as const, municipality, box: municipality.box }
      const result = await readObservations(ctx.upstream(artskartApi), deps.budget, area, params)
      const searched = { number: municipality.number, name: municipality.name, county: municipality.county }
      return { ...result, data: { ...result.data, municipality: searched } }
    },
  })
}
