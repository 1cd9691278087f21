import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { checkUpstreamShape, defineOperation } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { budgetFor, takeCensusTurn } from './census-budget.js'
import { censusPropertyAnswerPayload } from './census-payload.js'
import { censusPropertySchema, residentsOf, textOf, toCensusProperty } from './census-rows.js'
import { digitalarkivetCensus } from './digitalarkivet-upstream.js'

const nullableText = (description: string) => v.pipe(v.nullable(v.string()), v.description(description))

const apartmentSchema = v.object({
  apartment_id: v.pipe(
    v.string(),
    v.description('Id of the apartment record: get_census_property with it tells who lived there'),
  ),
  leilighetsnummer: nullableText('Apartment number as the census gives it'),
  etasje: nullableText('Floor as the census gives it'),
  husleie: nullableText('Yearly rent as the census gives it'),
})

const apartmentPayload = v.looseObject({
  id: v.union([v.string(), v.number()]),
  leilighetsnummer: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  etasje: v.optional(v.nullable(v.union([v.string(), v.number()]))),
  husleie: v.optional(v.nullable(v.union([v.string(), v.number()]))),
})

/**
 * Builds `get_census_property` over the request budget its calls take turns in.
 *
 * @example
 * const operation = createGetCensusProperty(censusRequestBudget)
 */
export function createGetCensusProperty(budget: RequestBudget | undefined) {
  return defineOperation({
    description:
      "One dwelling place of Norway's 1910 census by its Digitalarkivet id (property_id of search_census_properties: bf… for a " +
      'farm or holding, gf… for a town address), with the people counted there. A town address lists its apartments, each ' +
      'with its own id to ask this operation for; the residents of a town building are recorded by apartment.',
    parameters: {
      property_id: v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^[a-z]{1,3}\d{1,20}$/i, 'must be a Digitalarkivet id: letters then digits, like bf01036717000017'),
        v.description('Digitalarkivet id of the place or apartment, e.g. bf01036717000017'),
      ),
    },
    output: v.object({
      ...censusPropertySchema.entries,
      apartments: v.pipe(v.array(apartmentSchema), v.description('The apartments of a town address; empty for a farm')),
    }),
    cacheTtlSeconds: 7 * 24 * 3600,
    entities: (data) => [
      {
        type: 'census_property',
        id: data.property_id,
        name: data.gaardsnavn_gateadr ?? data.bruksnavn ?? data.property_id,
      },
      ...data.apartments.map((a) => ({
        type: 'census_property',
        id: a.apartment_id,
        name: `Apartment ${a.leilighetsnummer ?? a.apartment_id}`,
      })),
    ],

    async run(params, ctx) {
      const client = ctx.upstream(digitalarkivetCensus)
      await takeCensusTurn(budgetFor(client, budget), client)
      const response = await client.getJson(`/property/${encodeURIComponent(params.property_id)}`, {
        acceptStatus: [404],
      })
      if (response.status === 404) {
        throw new GatewayError(
          404,
          'entity_not_found',
          `Digitalarkivet has no 1910 census record ${params.property_id}`,
        )
      }
      const answer = checkUpstreamShape(client, censusPropertyAnswerPayload, response.body, 'the census record')
      // The record stands under `property`; an answer without that key is taken to be the record itself.
      const record = (answer.property ?? answer) as Record<string, unknown>
      const row = toCensusProperty({ efid: params.property_id, ...record, id: undefined }, true)
      if (row === null)
        throw new GatewayError(
          404,
          'entity_not_found',
          `Digitalarkivet has no readable 1910 census record ${params.property_id}`,
        )
      const persons = answer.persons ?? (Array.isArray(record.persons) ? record.persons : [])
      const apartments = (answer.apartments ?? []).flatMap((apartment) => {
        const parsed = v.safeParse(apartmentPayload, apartment)
        if (!parsed.success) return []
        const a = parsed.output
        return [
          {
            apartment_id: String(a.id),
            leilighetsnummer: textOf(a.leilighetsnummer),
            etasje: textOf(a.etasje),
            husleie: textOf(a.husleie),
          },
        ]
      })
      return {
        data: {
          ...row,
          property_id: textOf(record.id as string | undefined) ?? params.property_id,
          residents: residentsOf(persons),
          apartments,
        },
      }
    },
  })
}
