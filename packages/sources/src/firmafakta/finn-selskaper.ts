import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation, UpstreamError } from '@allmenning/core/source'
import { brreg } from './brreg-upstream.js'
import { enhetsdetaljerSchema, toEnhetsdetaljer } from './enhet-mapping.js'
import { fetchWindow } from './fetch-window.js'
import { organizationEntity } from './organization-entity.js'
import { BRREG_MAX_DEPTH } from './page-mapping.js'

/** `data` of `finn_selskaper`: one page of main entities, and how many match in all. */
export const finnSelskaperOutput = v.object({
  selskaper: v.array(enhetsdetaljerSchema),
  total: v.pipe(v.number(), v.description('Every match Brønnøysund counts, also those past the 10 000 rows it serves')),
  note: v.pipe(
    v.nullable(v.string()),
    v.description('Why a search may have found nothing, when there is a likely reason'),
  ),
})

/**
 * A comma list checked item by item and given back normalized (trimmed, no repeats), so that
 * `AS, asa` and `AS,ASA` are one cache key and one upstream call.
 */
function commaList(options: { item: RegExp; rule: string; max: number; upper?: boolean; description: string }) {
  const items = (text: string) =>
    [...new Set(text.split(',').map((item) => (options.upper ? item.trim().toUpperCase() : item.trim())))].filter(
      (item) => item !== '',
    )
  return v.optional(
    v.pipe(
      v.string(),
      v.check((text) => items(text).length > 0, 'must name at least one value'),
      v.check((text) => items(text).every((item) => options.item.test(item)), options.rule),
      v.check((text) => items(text).length <= options.max, `must name at most ${options.max} values`),
      v.transform((text) => items(text).join(',')),
      v.description(options.description),
    ),
  )
}

const headcount = (what: string) =>
  v.optional(
    v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(1_000_000), v.description(what)),
  )

const FILTERS = [
  'navn',
  'kommunenummer',
  'naeringskode',
  'organisasjonsform',
  'fra_antall_ansatte',
  'til_antall_ansatte',
] as const

function invalid(parameter: string, problem: string, rule: string): GatewayError {
  return new GatewayError(400, 'invalid_parameter', `Invalid parameter: ${parameter} ${problem}`, {
    details: [{ parameter, problem, rule }],
  })
}

/**
 * `finn_selskaper`: main entities of Enhetsregisteret by municipality, industry code,
 * organisation form, headcount range and name, paged: `limit`/`offset` are mapped onto
 * Brønnøysund's `page`/`size` by `planPages`. Brønnøysund serves no row past the 10 000th
 * (page × size), so a window reaching past it is a 400 naming `offset` instead of a silent
 * short page.
 *
 * @example
 * const filters = { navn: undefined, naeringskode: undefined, fra_antall_ansatte: undefined, til_antall_ansatte: undefined, konkurs: undefined }
 * const { data } = await finnSelskaper.run({ ...filters, kommunenummer: '5001', organisasjonsform: 'AS', limit: 25, offset: 0 }, ctx)
 * data.selskaper[0]?.navn // the largest AS in Trondheim by headcount
 */
export const finnSelskaper = defineOperation({
  description:
    'Find companies (main entities) in Enhetsregisteret by municipality (kommunenummer), industry code (naeringskode), ' +
    'organisation form, employee range and name; at least one filter. Without a name the largest by headcount come ' +
    'first, with one the best name matches. Each company has the fields of selskapsdetaljer. Brønnøysund serves only ' +
    'the first 10 000 rows of a search.',
  parameters: {
    navn: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.minLength(2, 'must be at least 2 characters'),
        v.maxLength(100, 'must be at most 100 characters'),
        v.description('Name or part of it'),
      ),
    ),
    kommunenummer: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^\d{4}$/, 'must be a 4-digit municipality number, e.g. 0301'),
        v.description('Municipality number of the business address (current numbering), e.g. 0301 for Oslo'),
      ),
    ),
    naeringskode: commaList({
      item: /^\d{2}(\.\d{1,3})?$/,
      rule: 'must be industry codes such as 56.101 or 56, separated by commas',
      max: 20,
      description:
        'Industry codes (NACE, SN2025), comma-separated; Brønnøysund has moved to SN2025 codes, so an old code may find nothing',
    }),
    organisasjonsform: commaList({
      item: /^[A-ZÆØÅ]{2,5}$/,
      rule: 'must be organisation-form codes such as AS or ASA, separated by commas',
      max: 20,
      upper: true,
      description: 'Organisation forms, comma-separated: AS, ASA, ENK, ANS, DA, SA, NUF, STI, …',
    }),
    fra_antall_ansatte: headcount('At least this many employees'),
    til_antall_ansatte: headcount('At most this many employees'),
    konkurs: v.optional(
      v.pipe(v.boolean(), v.description('true: only bankrupt companies; false: none; left out: both')),
    ),
  },
  output: finnSelskaperOutput,
  list: 'selskaper',
  canonicalFieldAliases: { name: ['selskaper[].navn'] },
  shapeNote:
    'data is {selskaper: [...], total, note, has_more_results}; each company has the fields of selskapsdetaljer.',
  // Reads no dataset, so an import leaves its cached answers alone.
  datasets: [],
  async run(params, ctx) {
    if (FILTERS.every((name) => params[name] === undefined)) {
      throw invalid(
        'kommunenummer',
        `or another filter is required: give at least one of ${FILTERS.join(', ')}`,
        'required',
      )
    }
    const { fra_antall_ansatte: from, til_antall_ansatte: to } = params
    if (from !== undefined && to !== undefined && to < from) {
      throw invalid('til_antall_ansatte', `must be at least fra_antall_ansatte (${from})`, 'min_value')
    }
    const end = params.offset + params.limit
    if (end > BRREG_MAX_DEPTH) {
      throw invalid(
        'offset',
        `must leave offset + limit at most ${BRREG_MAX_DEPTH} (Brønnøysund serves no row past the ${BRREG_MAX_DEPTH}th of a search)`,
        'max_value',
      )
    }
    const query = {
      navn: params.navn,
      kommunenummer: params.kommunenummer,
      naeringskode: params.naeringskode,
      organisasjonsform: params.organisasjonsform,
      fraAntallAnsatte: from,
      tilAntallAnsatte: to,
      konkurs: params.konkurs,
      // A name search keeps Brønnøysund's relevance order; a filter-only search is most useful largest first.
      sort: params.navn === undefined ? 'antallAnsatte,DESC' : undefined,
    }
    const window = await fetchWindow(
      ctx.upstream(brreg),
      { path: '/enheter', resource: 'enhet', query },
      params.offset,
      end,
    ).catch((error: unknown) => {
      // Paging is planned within Brønnøysund's limits, so its 400 ("Ugyldig forespørsel") is
      // about a filter value it does not know, such as an organisation form code: the client's
      // to fix, not an outage. Which filter its body does not reliably say.
      if (error instanceof UpstreamError && error.upstreamStatus === 400) {
        const named =
          (['organisasjonsform', 'naeringskode', 'kommunenummer'] as const).find(
            (name) => params[name] !== undefined,
          ) ?? 'navn'
        throw invalid(
          named,
          `has a value Brønnøysund refuses (${params[named]}); check the codes against Enhetsregisteret's code lists`,
          'enum',
        )
      }
      throw error
    })
    const note =
      window.total === 0 && params.naeringskode !== undefined
        ? 'No match. Brønnøysund has moved to the SN2025 industry codes and answers an old (SN2007) code with no hits: check the code.'
        : null
    return {
      data: { selskaper: window.rows.map((unit) => toEnhetsdetaljer(unit, 'hovedenhet')), total: window.total, note },
      page: { hasMore: end < Math.min(window.total, BRREG_MAX_DEPTH), total: window.total },
      sourceApi: window.url,
    }
  },
  entities: (data) => data.selskaper.map((unit) => organizationEntity(unit.organisasjonsnummer, unit.navn)),
})
