import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { describeUnit } from './beskrivelse.js'
import { brreg } from './brreg-upstream.js'
import type { BrregUnit } from './brreg-payloads.js'
import { fetchWindow } from './fetch-window.js'
import { organizationEntity } from './organization-entity.js'
import { BRREG_MAX_DEPTH, BRREG_MAX_PAGE_SIZE } from './page-mapping.js'
import { rankCompanies } from './rank-by-name.js'

/**
 * How many of Brønnøysund's best-scored hits are re-ranked locally. Rows past it keep
 * Brønnøysund's score order: an exact name match is practically never that far down.
 */
export const RANKED_POOL_SIZE = BRREG_MAX_PAGE_SIZE

/** `data` of `organisasjonsnummer_for_selskap`. */
export const organisasjonsnummerForSelskapOutput = v.array(
  v.object({
    navn: v.string(),
    organisasjonsnummer: v.string(),
    beskrivelse: v.string(),
  }),
)

const toHit = (unit: BrregUnit) => ({
  navn: unit.navn,
  organisasjonsnummer: unit.organisasjonsnummer,
  beskrivelse: describeUnit(unit),
})

/**
 * `organisasjonsnummer_for_selskap`: organisation numbers of the main entities whose name
 * matches `company_name`, best match first.
 *
 * @example
 * const { data } = await organisasjonsnummerForSelskap.run({ company_name: 'Sesam', limit: 5, offset: 0 }, ctx)
 * data[0] // { navn: 'SESAM AS', organisasjonsnummer: '976030788', beskrivelse: 'Aksjeselskap i Trondheim — ...' }
 */
export const organisasjonsnummerForSelskap = defineOperation({
  description:
    'Organisation numbers of the companies whose name matches company_name in Enhetsregisteret; an ambiguous ' +
    'name gives several. Best match first: the same name (also ignoring a trailing AS, ASA, ENK, ...), then ' +
    "names starting with it, then the rest in Brønnøysund's relevance order. beskrivelse tells namesakes " +
    'apart: organisation form, municipality, main industry and any bankruptcy or winding-up.',
  parameters: {
    company_name: v.pipe(
      v.string(),
      v.trim(),
      v.minLength(2, 'must be at least 2 characters'),
      v.maxLength(100, 'must be at most 100 characters'),
      v.description('Company name or part of it'),
    ),
  },
  output: organisasjonsnummerForSelskapOutput,
  shapeNote: 'The item keys navn, organisasjonsnummer and beskrivelse are fixed by spec 2.4.',
  // Reads no dataset, so an import leaves its cached answers alone.
  datasets: [],
  async run(params, ctx) {
    const client = ctx.upstream(brreg)
    const collection = { path: '/enheter', resource: 'enhet' as const, query: { navn: params.company_name } }
    const end = params.offset + params.limit
    if (params.offset >= RANKED_POOL_SIZE) {
      // Past the pool, local ranking changes nothing: rows stay in Brønnøysund's order.
      const window = await fetchWindow(client, collection, params.offset, end)
      return {
        data: window.rows.map(toHit),
        page: { hasMore: end < Math.min(window.total, BRREG_MAX_DEPTH), total: window.total },
        sourceApi: window.url,
      }
    }
    // The pool is fetched whole: ranking needs every hit in it before it can say which one
    // belongs at a given offset.
    const pool = await fetchWindow(client, collection, 0, RANKED_POOL_SIZE)
    const rows = rankCompanies(params.company_name, pool.rows).slice(params.offset, end)
    if (end > RANKED_POOL_SIZE && pool.total > RANKED_POOL_SIZE) {
      const tail = await fetchWindow(client, collection, RANKED_POOL_SIZE, end)
      rows.push(...tail.rows)
    }
    return {
      data: rows.map(toHit),
      page: { hasMore: end < Math.min(pool.total, BRREG_MAX_DEPTH), total: pool.total },
      sourceApi: pool.url,
    }
  },
  entities: (data) => data.map((hit) => organizationEntity(hit.organisasjonsnummer, hit.navn)),
})
