import * as v from 'valibot'
import { defineOperation, foldNorwegian } from '@allmenning/core/source'
import { decisionEntity, domstolSite } from './case-law-upstream.js'
import type { Decision, HoyesterettClient } from './hoyesterett-client.js'
import { parseHrNumber } from './hr-number.js'

/** `data` of `search_case_law`. */
export const searchCaseLawOutput = v.object({
  query: v.string(),
  hits: v.array(
    v.object({
      title: v.string(),
      hr_number: v.string(),
      excerpt: v.string(),
      published: v.string(),
      url: v.string(),
    }),
  ),
})

const EXCERPT_CHARS = 240

function excerpt(decision: Decision, terms: string[]): string {
  const text = decision.summary.replace(/\s+/g, ' ').trim() || decision.caseIntro
  const folded = foldNorwegian(text)
  // foldNorwegian keeps one character per character except æ (ae); the offset is close enough for a window.
  const at = Math.max(0, Math.min(...terms.map((t) => folded.indexOf(t)).filter((i) => i >= 0), text.length))
  const start = at > 60 ? text.lastIndexOf(' ', at - 60) + 1 : 0
  const window = text.slice(start, start + EXCERPT_CHARS)
  return `${start > 0 ? '…' : ''}${window}${start + EXCERPT_CHARS < text.length ? '…' : ''}`
}

/**
 * `search_case_law`: free text over the titles, case numbers, case intros and summaries of
 * Høyesterett decisions on domstol.no. Searches this year and last year (loaded on demand,
 * cached per year) and every other year already loaded; a case number finds its decision in
 * any year. Every word must match; hits in the title and newer cases rank first.
 *
 * @example
 * const searchCaseLaw = createSearchCaseLaw(createHoyesterettClient(), () => new Date())
 * await searchCaseLaw.run({ query: 'vegloven ekspropriasjon', limit: 10, offset: 0 }, ctx)
 */
export function createSearchCaseLaw(hoyesterett: HoyesterettClient, now: () => Date) {
  return defineOperation({
    description:
      'Free-text search in Supreme Court (Høyesterett) decisions on domstol.no: titles, case numbers (HR-…), case ' +
      'intros and summaries. Covers this year and last year, and every year list_case_law has loaded; a case number ' +
      'is found in any year. Every word must match; title hits and newer cases first.',
    parameters: {
      query: v.pipe(
        v.string(),
        v.trim(),
        v.minLength(2, 'must be at least 2 characters'),
        v.maxLength(200, 'must be at most 200 characters'),
        v.description('Words, or a case number such as HR-2025-844-A'),
      ),
    },
    limit: { default: 10, max: 100 },
    output: searchCaseLawOutput,
    list: 'hits',
    canonicalFieldAliases: { name: ['hits[].title'] },
    // Reads no dataset, so an import leaves its cached answers alone.
    datasets: [],
    async run(params, ctx) {
      const client = ctx.upstream(domstolSite)
      const toHit = (d: Decision, terms: string[]) => ({
        title: d.title,
        hr_number: d.hrNumber,
        excerpt: excerpt(d, terms),
        published: d.published,
        url: d.url,
      })
      const window = <T>(items: T[]) => ({
        items: items.slice(params.offset, params.offset + params.limit),
        page: { hasMore: params.offset + params.limit < items.length, total: items.length },
      })
      const hrNumber = parseHrNumber(params.query)
      if (hrNumber) {
        const decision = await hoyesterett.decision(client, hrNumber)
        const found = window(decision ? [toHit(decision, [])] : [])
        return {
          data: { query: params.query, hits: found.items },
          page: found.page,
          sourceApi: client.url('/sitemap.xml'),
        }
      }
      const current = now().getUTCFullYear()
      const years = [...new Set([current, current - 1, ...hoyesterett.loadedYears()])].sort((a, b) => b - a)
      const decisions = (await Promise.all(years.map((year) => hoyesterett.year(client, year)))).flat()
      const terms = foldNorwegian(params.query)
        .split(/[^\p{L}\p{N}-]+/u)
        .filter((t) => t.length > 0)
      const scored: { decision: Decision; score: number }[] = []
      for (const decision of decisions) {
        const title = foldNorwegian(decision.title)
        const text = `${title} ${foldNorwegian(decision.hrNumber)} ${foldNorwegian(decision.caseIntro)} ${foldNorwegian(decision.summary)}`
        if (!terms.every((term) => text.includes(term))) continue
        scored.push({ decision, score: terms.filter((term) => title.includes(term)).length })
      }
      scored.sort((a, b) => b.score - a.score || b.decision.published.localeCompare(a.decision.published))
      const found = window(scored.map((s) => toHit(s.decision, terms)))
      return {
        data: { query: params.query, hits: found.items },
        page: found.page,
        sourceApi: client.url('/sitemap.xml'),
      }
    },
    entities: (data) => data.hits.map(decisionEntity),
  })
}
