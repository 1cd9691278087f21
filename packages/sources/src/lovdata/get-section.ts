import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import { defineOperation } from '@allmenning/core/source'
import { documentIdParameter, findRule, ruleText, sectionParameter } from './rule-lookup.js'
import { sectionTextOf, type SectionRow } from './rule-rows.js'
import { sectionEntity } from './rule-entities.js'

/** `data` of `get_section`. */
export const getSectionOutput = v.object({
  document_id: v.string(),
  title: v.nullable(v.string()),
  section: v.string(),
  text: v.string(),
})

/**
 * `get_section`: the whole text of one section (paragraf) of a law or regulation, every ledd,
 * list and numbering kept. An unknown document or section is a 404 that says which.
 *
 * @example
 * await getSection.run({ document_id: 'NL/lov/2005-05-20-28', section: '5a', limit: 25, offset: 0 }, ctx)
 */
export const getSection = defineOperation({
  description:
    'The text of one section (paragraf) of a Norwegian law or central regulation: document_id as NL/lov/2005-05-20-28, ' +
    'lov/2005-05-20-28 or LOV-2005-05-20-28, section as § 5a, 5a or §5a. From Lovdata’s public data.',
  parameters: { document_id: documentIdParameter, section: sectionParameter },
  output: getSectionOutput,
  canonicalFieldAliases: { name: ['title'] },
  shapeNote:
    'title is the section’s own title (legalArticleTitle), null when it has none; section is its key (5a, 13-5), the form get_rule lists and get_section takes back.',
  async run(params, ctx) {
    const { doc, reader } = await findRule(ctx, params.document_id, ['document_id', 'title', 'title_short'])
    const [section] = await reader.select<SectionRow>('sections', {
      where: { document_id: doc.document_id, section: params.section },
      limit: 1,
    })
    if (!section) {
      throw new GatewayError(
        404,
        'entity_not_found',
        `${doc.title_short ?? doc.title} (${doc.document_id}) has no § ${params.section}`,
      )
    }
    // The key, not the label (`§ 5a`): what get_rule lists and what a caller passes back as `section`.
    return {
      data: {
        document_id: doc.document_id,
        title: section.title,
        section: section.section,
        text: sectionTextOf(await ruleText(reader, doc.document_id), section),
      },
    }
  },
  entities: (data) => [sectionEntity(data.document_id, data.section, data.title)],
})
