import * as v from 'valibot'
import { defineOperation } from '@allmenning/core/source'
import { decisionEntity, domstolSite } from './case-law-upstream.js'
import type { HoyesterettClient } from './hoyesterett-client.js'

/** The categories domstol.no sorts decisions into. */
export const CASE_LAW_CATEGORIES = ['sivil', 'straff', 'ankeutvalg-sivil', 'ankeutvalg-straff'] as const

/** `data` of `list_case_law`. */
export const listCaseLawOutput = v.object({
  year: v.number(),
  categories: v.array(v.string()),
  total: v.number(),
  offset: v.number(),
  returned: v.number(),
  decisions: v.array(
    v.object({
      title: v.string(),
      hr_number: v.string(),
      published: v.string(),
      category: v.string(),
      url: v.string(),
    }),
  ),
  note: v.nullable(v.string()),
})

/**
 * `list_case_law`: the Høyesterett decisions of one year on domstol.no, newest case number
 * first, optionally of one category, paged by `limit` (default 50) and `offset`.
 *
 * @example
 * const listCaseLaw = createListCaseLaw(createHoyesterettClient())
 * await listCaseLaw.run({ year: 2025, category: 'sivil', limit: 50, offset: 0 }, ctx)
 */
export function createListCaseLaw(hoyesterett: HoyesterettClient) {
  return defineOperation({
    description:
      'Supreme Court (Høyesterett) decisions of one calendar year as domstol.no publishes them, newest case number ' +
      'first: title, case number (HR-…), date, category (sivil, straff, ankeutvalg-sivil, ankeutvalg-straff) and page. ' +
      'categories lists those present that year; get_case_law gives a decision’s summary and PDF.',
    parameters: {
      year: v.pipe(
        v.number(),
        v.integer(),
        v.minValue(2000, 'must be 2000 or later'),
        v.maxValue(2100, 'must be 2100 or earlier'),
        v.description('Calendar year, such as 2025'),
      ),
      category: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.toLowerCase(),
          v.picklist(CASE_LAW_CATEGORIES, `must be one of ${CASE_LAW_CATEGORIES.join(', ')}`),
          v.description('Only this category'),
        ),
      ),
    },
    limit: { default: 50, max: 200 },
    output: listCaseLawOutput,
    list: 'decisions',
    canonicalFieldAliases: { name: ['decisions[].title'] },
    // Reads no dataset, so an import leaves its cached answers alone.
    datasets: [],
    async run(params, ctx) {
      const client = ctx.upstream(domstolSite)
      const all = await hoyesterett.year(client, params.year)
      const categories = [...new Set(all.map((d) => d.category))].sort()
      const chosen = params.category ? all.filter((d) => d.category === params.category) : all
      const page = chosen.slice(params.offset, params.offset + params.limit)
      const note =
        all.length === 0
          ? `domstol.no lists no Høyesterett decision for ${params.year}.`
          : 'Decisions as published on domstol.no; the full text of each is in its PDF (get_case_law).'
      return {
        data: {
          year: params.year,
          categories,
          total: chosen.length,
          offset: params.offset,
          returned: page.length,
          decisions: page.map((d) => ({
            title: d.title,
            hr_number: d.hrNumber,
            published: d.published,
            category: d.category,
            url: d.url,
          })),
          note,
        },
        page: { hasMore: params.offset + page.length < chosen.length, total: chosen.length },
        sourceApi: client.url('/sitemap.xml'),
      }
    },
    entities: (data) => data.decisions.map(decisionEntity),
  })
}
