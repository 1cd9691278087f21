import * as v from 'valibot'
import { GatewayError } from '@allmenning/core'
import type { DatasetReader, DatasetVersion, OperationContext } from '@allmenning/core/source'
import { normalizeSection, parseDocumentId, type DocumentRef } from './document-id.js'
import { RULE_DATASETS, ruleSourceOf } from './rule-datasets.js'
import type { DocumentRow, TextRow } from './rule-rows.js'

/**
 * The `document_id` parameter, in every form users type it; valid input becomes the document
 * id as Lovdata writes it (`NL/lov/2005-05-20-28`), which the answer echoes and links with.
 */
export const documentIdParameter = v.pipe(
  v.string(),
  v.trim(),
  v.check(
    (id) => parseDocumentId(id) !== undefined,
    'must be a law or regulation id such as NL/lov/2005-05-20-28, lov/2005-05-20-28 or LOV-2005-05-20-28',
  ),
  v.transform((id) => (parseDocumentId(id) as DocumentRef).documentId),
  v.description('Law or regulation: NL/lov/2005-05-20-28, lov/2005-05-20-28 or LOV-2005-05-20-28'),
)

/** The `section` parameter: `§ 5a`, `5a` or `§5a`, normalised to the stored key. */
export const sectionParameter = v.pipe(
  v.string(),
  v.trim(),
  v.check((section) => normalizeSection(section) !== undefined, 'must be a section such as § 5a, 5a or §5a'),
  v.transform((section) => normalizeSection(section) as string),
  v.description('Section (paragraf): § 5a, 5a or §5a'),
)

/** The columns a rule is answered with; the whole `body` is read only when asked for. */
export const DOCUMENT_COLUMNS = [
  'document_id',
  'legacy_id',
  'kind',
  'title',
  'title_short',
  'ministry',
  'in_force_from',
  'last_change_in_force',
] as const

/** The columns `get_rule` reads: the header, the section count and the text outside sections. */
export const RULE_COLUMNS = [...DOCUMENT_COLUMNS, 'section_count', 'loose_text']

/**
 * A rule's whole text (its `texts` row), read only by the lookups that answer text.
 *
 * @example
 * sectionTextOf(await ruleText(reader, doc.document_id), section)
 */
export async function ruleText(reader: DatasetReader, documentId: string): Promise<Pick<TextRow, 'body'>> {
  const [text] = await reader.select<TextRow>('texts', {
    where: { document_id: documentId },
    columns: ['body'],
    limit: 1,
  })
  return text ?? { body: '' }
}

/**
 * One loaded rule by id, from the dataset its kind lives in; a 404 that says so when the
 * loaded version has no such document, the core's 502 `dataset_not_loaded` when none is loaded.
 *
 * @example
 * const { doc, reader } = await findRule(ctx, 'NL/lov/2005-05-20-28', RULE_COLUMNS)
 */
export async function findRule(
  ctx: OperationContext,
  documentId: string,
  columns?: readonly string[],
): Promise<{ doc: DocumentRow; reader: DatasetReader }> {
  const ref = parseDocumentId(documentId) as DocumentRef
  const source = ruleSourceOf(ref.kind)
  const reader = ctx.dataset(RULE_DATASETS[source])
  const [doc] = await reader.select<DocumentRow>('documents', {
    where: { document_id: ref.documentId },
    columns,
    limit: 1,
  })
  if (!doc) {
    const what = source === 'laws' ? 'law' : 'central regulation'
    throw new GatewayError(
      404,
      'entity_not_found',
      `Lovdata's public data has no ${what} in force with id ${ref.documentId}`,
    )
  }
  return { doc, reader }
}

/** The date the loaded data stands at: Lovdata's date when known, else when it was loaded. */
export function dataUpdated(versions: DatasetVersion[]): string {
  return (
    versions
      .map((version) => (version.publishedAt ?? version.loadedAt).slice(0, 10))
      .sort()
      .at(-1) ?? ''
  )
}
