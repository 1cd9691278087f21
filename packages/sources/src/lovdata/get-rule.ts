import * as v from 'valibot'
import { ruleHeaderFields } from './rule-header.js'
import { defineOperation } from '@allmenning/core/source'
import { documentIdParameter, findRule, RULE_COLUMNS, ruleText } from './rule-lookup.js'
import { ruleSourceOf } from './rule-datasets.js'
import { sectionTextOf, type SectionRow, type TextRow } from './rule-rows.js'
import { ruleEntity, sectionEntity } from './rule-entities.js'

/** `data` of `get_rule`. */
export const getRuleOutput = v.object({
  ...ruleHeaderFields,
  sections: v.array(v.object({ section: v.string(), title: v.nullable(v.string()) })),
  text: v.nullable(v.string()),
})

function sectionText(doc: Pick<TextRow, 'body'>, section: SectionRow): string {
  return `${section.label}${section.title ? ` ${section.title}` : ''}\n${sectionTextOf(doc, section)}`
}

/**
 * `get_rule`: one law or central regulation in force, with its header fields and its sections
 * in order, paged; with `full_text=yes` also the text of the sections on the page.
 *
 * @example
 * await getRule.run({ document_id: 'NL/lov/2005-05-20-28', full_text: false, limit: 25, offset: 0 }, ctx)
 */
export const getRule = defineOperation({
  description:
    'One Norwegian law or central regulation in force by id (NL/lov/2005-05-20-28, lov/2005-05-20-28 or LOV-2005-05-20-28): ' +
    'titles, ministry, dates in force and its sections (paragrafer) in order, paged; full_text=yes adds the text of the ' +
    'sections on the page. From Lovdata’s public data; needs `npx allmenning datasets sync lovdata_lover` (laws) or ' +
    '`lovdata_forskrifter` (regulations).',
  parameters: {
    document_id: documentIdParameter,
    full_text: v.optional(v.pipe(v.boolean(), v.description('Add the text of the sections on this page')), false),
  },
  limit: { default: 25, max: 200 },
  output: getRuleOutput,
  list: 'sections',
  canonicalFieldAliases: { name: ['title'] },
  async run(params, ctx) {
    const { doc, reader } = await findRule(ctx, params.document_id, RULE_COLUMNS)
    const sections = await reader.select<SectionRow>('sections', {
      where: { document_id: doc.document_id },
      orderBy: [{ column: 'position' }],
      limit: params.limit,
      offset: params.offset,
    })
    let text: string | null = null
    if (params.full_text) {
      // Text outside any section (an introduction) belongs before the first section.
      const whole = await ruleText(reader, doc.document_id)
      const parts = sections.map((section) => sectionText(whole, section))
      if (params.offset === 0 && doc.loose_text) parts.unshift(doc.loose_text)
      text = parts.join('\n\n')
    }
    return {
      data: {
        document_id: doc.document_id,
        source: ruleSourceOf(doc.kind),
        legacy_id: doc.legacy_id,
        title: doc.title,
        title_short: doc.title_short,
        ministry: doc.ministry,
        in_force_from: doc.in_force_from,
        last_change_in_force: doc.last_change_in_force,
        sections: sections.map((section) => ({ section: section.section, title: section.title })),
        text,
      },
      page: { hasMore: params.offset + sections.length < doc.section_count, total: doc.section_count },
    }
  },
  entities: (data) => [
    ruleEntity(data),
    ...data.sections.map((section) => sectionEntity(data.document_id, section.section, section.title)),
  ],
})
