import type { EntityInput } from '@allmenning/core/source'

/** Entity types of rules; the source links a law or regulation to `get_rule`, a section to `get_section`. */
export const LAW_ENTITY = 'law'
export const REGULATION_ENTITY = 'regulation'
export const SECTION_ENTITY = 'rule_section'

/**
 * An entity for one law or regulation.
 *
 * @example
 * ruleEntity({ document_id: 'NL/lov/2005-05-20-28', source: 'laws', title: 'Lov om straff (straffeloven)' })
 */
export function ruleEntity(rule: { document_id: string; source: string; title: string }): EntityInput {
  return {
    type: rule.source === 'regulations' ? REGULATION_ENTITY : LAW_ENTITY,
    id: rule.document_id,
    name: rule.title,
  }
}

/**
 * How a section is named: its key after a §, then its title when it has one.
 *
 * @example
 * sectionName('5a', 'Forbud mot dobbeltstraff') // '§ 5a Forbud mot dobbeltstraff'
 */
export function sectionName(section: string, title: string | null): string {
  return `§ ${section}${title ? ` ${title}` : ''}`
}

/**
 * An entity for one section of a rule, linked to `get_section` by document and section.
 *
 * @example
 * sectionEntity('NL/lov/2005-05-20-28', '5a', 'Forbud mot dobbeltstraff') // named '§ 5a Forbud mot dobbeltstraff'
 */
export function sectionEntity(documentId: string, section: string, title: string | null): EntityInput {
  return {
    type: SECTION_ENTITY,
    id: `${documentId}/§${section}`,
    name: sectionName(section, title),
    linkParameters: { document_id: documentId, section },
  }
}
