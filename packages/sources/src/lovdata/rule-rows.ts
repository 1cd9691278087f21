// The rows of the rule datasets' tables, as the import writes them and the operations read them.

/** A row of the `documents` table. */
export interface DocumentRow {
  document_id: string
  ref_id: string
  legacy_id: string | null
  kind: string
  language: string
  title: string
  title_short: string | null
  short_names: string
  short_key: string | null
  ministry: string | null
  in_force_from: string | null
  last_change_in_force: string | null
  based_on: string | null
  loose_text: string | null
  section_count: number
  /** Each section as one token ({@link sectionToken}), for section references. */
  section_keys: string
}

/**
 * A row of the `texts` table: a document's whole text, once, with its own full-text index,
 * apart from the small index over titles so a title search never reads the text's postings.
 */
export interface TextRow {
  document_id: string
  section_keys: string
  /** The titles, then the text outside sections, then each section's label, title and text. */
  body: string
}

/**
 * A row of the `headings` table: a document's titles and its headings, with their own small
 * full-text index. A heading is as short and telling as a title (TEK17's § 13-5 is "Radon"),
 * so a search without `full_text` reads it too, without walking the text's posting lists.
 */
export interface HeadingRow {
  document_id: string
  section_keys: string
  /** The titles, then each chapter's heading and each section's title, in document order. */
  body: string
}

/**
 * A row of the `sections` table. Its text is not stored again: it is `body` of its document's
 * text from `text_start` to `text_end` (UTF-16 offsets, as JavaScript slices), see {@link sectionTextOf}.
 */
export interface SectionRow {
  document_id: string
  position: number
  section: string
  label: string
  title: string | null
  chapter: string | null
  text_start: number
  text_end: number
  url: string | null
}

/**
 * The text of a section, cut from its document's body.
 *
 * @example
 * sectionTextOf(doc, section) // 'Loven gjelder handlinger foretatt i riket …'
 */
export function sectionTextOf(
  doc: Pick<TextRow, 'body'>,
  section: Pick<SectionRow, 'text_start' | 'text_end'>,
): string {
  return doc.body.slice(section.text_start, section.text_end)
}

/**
 * A section key as one index token (`3-1` → `p3x1`, `5a` → `p5a`): a reference is then one
 * short posting list, where the phrase of the tokens `3` and `1` would read every position of
 * two of the commonest tokens there are. No Norwegian word has this shape.
 *
 * @example
 * sectionToken('13-5 b') // 'p13x5b'
 */
export function sectionToken(section: string): string {
  return `p${section.toLowerCase().replace(/\s+/g, '').replace(/[-.]/g, 'x')}`
}
