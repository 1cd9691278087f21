import * as v from 'valibot'
import { defineOperation, GatewayError } from '@allmenning/core'
import { decisionEntity, domstolSite } from './case-law-upstream.js'
import { parseHrNumber, type HoyesterettClient } from './hoyesterett-client.js'

/** `data` of `get_case_law`. */
export const getCaseLawOutput = v.object({
  title: v.string(),
  hr_number: v.string(),
  published: v.string(),
  url: v.string(),
  case_intro: v.string(),
  summary: v.string(),
  pdf_url: v.nullable(v.string()),
  full_text: v.nullable(v.string()),
  note: v.nullable(v.string()),
})

/**
 * `get_case_law`: one Høyesterett decision by case number, with its case intro, summary and
 * PDF link, as domstol.no publishes it. An unknown case number is a 404.
 *
 * @example
 * const getCaseLaw = createGetCaseLaw(createHoyesterettClient())
 * await getCaseLaw.run({ ref: 'HR-2025-844-A', full_text: false, limit: 25, offset: 0 }, ctx)
 */
export function createGetCaseLaw(hoyesterett: HoyesterettClient) {
  return defineOperation({
    name: 'get_case_law',
    description:
      'One Supreme Court (Høyesterett) decision by case number (ref, such as HR-2025-844-A): title, date, page on ' +
      'domstol.no, case intro (court, date, case number, parties), summary (with judges, legal area, key paragraphs) ' +
      'and the link to the decision’s PDF.',
    parameters: {
      ref: v.pipe(
        v.string(),
        v.trim(),
        v.check((ref) => parseHrNumber(ref) !== undefined, 'must be a case number such as HR-2024-1234-A'),
        v.transform((ref) => parseHrNumber(ref) as string),
        v.description('Case number, such as HR-2025-844-A'),
      ),
      full_text: v.optional(v.pipe(v.boolean(), v.description('Ask for the decision’s full text as well')), false),
    },
    limit: { default: 25, max: 100 },
    output: getCaseLawOutput,
    canonicalFieldAliases: { name: ['title'] },
    async run(params, ctx) {
      const client = ctx.upstream(domstolSite)
      const decision = await hoyesterett.decision(client, params.ref)
      if (!decision) throw new GatewayError(404, 'entity_not_found', `domstol.no publishes no Høyesterett decision ${params.ref}`)
      const note = params.full_text
        ? 'The full text is published only as the PDF at pdf_url; this gateway does not extract PDF text yet.'
        : null
      return {
        data: {
          title: decision.title,
          hr_number: decision.hrNumber,
          published: decision.published,
          url: decision.url,
          case_intro: decision.caseIntro,
          summary: decision.summary,
          pdf_url: decision.pdfUrl,
          full_text: null,
          note,
        },
        sourceApi: client.url(decision.path),
      }
    },
    entities: (data) => [decisionEntity(data)],
  })
}
