import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { decisionEntity, domstolSite } from './case-law-upstream.js'
import type { HoyesterettClient } from './hoyesterett-client.js'
import { parseHrNumber } from './hr-number.js'

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
 * PDF link, as domstol.no publishes it, and with `full_text=yes` the decision's text from that
 * PDF, paragraphs kept; when the PDF cannot be fetched or read, `full_text` is null and `note`
 * says why. An unknown case number is a 404.
 *
 * @example
 * const getCaseLaw = createGetCaseLaw(createHoyesterettClient())
 * await getCaseLaw.run({ ref: 'HR-2025-844-A', full_text: false, limit: 25, offset: 0 }, ctx)
 */
export function createGetCaseLaw(hoyesterett: HoyesterettClient) {
  return defineOperation({
    description:
      'One Supreme Court (Høyesterett) decision by case number (ref, such as HR-2025-844-A): title, date, page on ' +
      'domstol.no, case intro (court, date, case number, parties), summary (with judges, legal area, key paragraphs) ' +
      'and the link to the decision’s PDF; full_text=yes adds the decision’s text, read from that PDF (note says why when it cannot be read).',
    parameters: {
      ref: v.pipe(
        v.string(),
        v.trim(),
        v.check((ref) => parseHrNumber(ref) !== undefined, 'must be a case number such as HR-2024-1234-A'),
        v.transform((ref) => parseHrNumber(ref) as string),
        v.description('Case number, such as HR-2025-844-A'),
      ),
      full_text: v.optional(
        v.pipe(v.boolean(), v.description('Add the decision’s full text, read from its PDF')),
        false,
      ),
    },
    limit: { default: 25, max: 100 },
    output: getCaseLawOutput,
    canonicalFieldAliases: { name: ['title'] },
    // Reads no dataset, so an import leaves its cached answers alone.
    datasets: [],
    async run(params, ctx) {
      const client = ctx.upstream(domstolSite)
      const decision = await hoyesterett.decision(client, params.ref)
      if (!decision)
        throw new GatewayError(404, 'entity_not_found', `domstol.no publishes no Høyesterett decision ${params.ref}`)
      // The page holds the summary; the decision's own text is only in its PDF.
      const text = params.full_text ? await hoyesterett.fullText(client, decision) : undefined
      const fullText = text && 'text' in text ? text.text : null
      const note = text && 'unavailable' in text ? text.unavailable : null
      return {
        data: {
          title: decision.title,
          hr_number: decision.hrNumber,
          published: decision.published,
          url: decision.url,
          case_intro: decision.caseIntro,
          summary: decision.summary,
          pdf_url: decision.pdfUrl,
          full_text: fullText,
          note,
        },
        sourceApi: client.url(decision.path),
      }
    },
    entities: (data) => [decisionEntity(data)],
  })
}
