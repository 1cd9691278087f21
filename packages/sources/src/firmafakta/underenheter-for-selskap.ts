import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { brreg } from './brreg-upstream.js'
import { enhetsdetaljerSchema, toEnhetsdetaljer } from './enhet-mapping.js'
import { entityNotFound } from './entity-not-found.js'
import { fetchWindow } from './fetch-window.js'
import { orgNrSchema } from './org-nr.js'
import { organizationEntity } from './organization-entity.js'
import { BRREG_MAX_DEPTH } from './page-mapping.js'
import { lookUpUnit } from './unit-lookup.js'

/** `data` of `underenheter_for_selskap`: one page of branches, in Brønnøysund's order. */
export const underenheterForSelskapOutput = v.array(enhetsdetaljerSchema)

/**
 * `underenheter_for_selskap`: the sub-units (branches, establishments) of a main entity,
 * paged: the gateway's `limit`/`offset` are mapped onto Brønnøysund's `page`/`size` by
 * `planPages`, so no row is lost or repeated whatever the offset.
 *
 * @example
 * const { data, page } = await underenheterForSelskap.run({ org_nr: '912346021', limit: 2, offset: 1 }, ctx)
 * page // { hasMore: true, total: 5 }
 */
export const underenheterForSelskap = defineOperation({
  description:
    'Sub-units (branches, establishments) registered under one main entity in Enhetsregisteret, each with its ' +
    'location address, industry, employees and start date. An unknown parent is a 404; a parent without ' +
    'sub-units gives an empty list. Brønnøysund serves at most the first 10 000 rows of any list.',
  parameters: { org_nr: orgNrSchema },
  output: underenheterForSelskapOutput,
  shapeNote: 'Spec 2.4 leaves data open; each sub-unit has the fields of selskapsdetaljer.',
  // Reads no dataset, so an import leaves its cached answers alone.
  datasets: [],
  async run(params, ctx) {
    const client = ctx.upstream(brreg)
    const end = params.offset + params.limit
    const window = await fetchWindow(
      client,
      { path: '/underenheter', resource: 'underenhet', query: { overordnetEnhet: params.org_nr } },
      params.offset,
      end,
    )
    if (window.total === 0) {
      // The search cannot tell "no branches" from "no such company"; the entity lookup can.
      if (!(await lookUpUnit(client, 'hovedenhet', params.org_nr))) throw entityNotFound(params.org_nr)
    }
    return {
      data: window.rows.map((unit) => toEnhetsdetaljer(unit, 'underenhet')),
      page: { hasMore: end < Math.min(window.total, BRREG_MAX_DEPTH), total: window.total },
      sourceApi: window.url,
    }
  },
  entities: (data) => data.map((unit) => organizationEntity(unit.organisasjonsnummer, unit.navn)),
})
