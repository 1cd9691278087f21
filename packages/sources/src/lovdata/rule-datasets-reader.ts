import type { DatasetRowOutput, StreamContent } from '@allmenning/core/source'
import type { LovdataDocument } from './parse-document.js'
import { sectionToken } from './rule-rows.js'

/**
 * The names a law is called by, for ranking: the short title's words and the name in brackets
 * of the long title (`Lov om straff (straffeloven)` → `straffeloven`), so "straffeloven" finds
 * that law first and not every regulation that cites it.
 */
function shortNames(doc: LovdataDocument): string {
  const names = new Set<string>()
  for (const part of (doc.titleShort ?? '').split(/\s+[–—-]\s+/)) if (part.trim()) names.add(part.trim())
  for (const match of doc.title.matchAll(/\(([^()]+)\)/g)) names.add(match[1]!.trim())
  return [...names].join(' ')
}

/**
 * The short title's name as the words a search sees, lower case (`Straffeloven – strl` →
 * `straffeloven`), so a search for exactly that name can put the law first.
 */
export function shortKey(titleShort: string | null): string | null {
  const name = titleShort?.split(/\s+[–—-]\s+/)[0] ?? ''
  const words = name
    .normalize('NFC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu)
  return words ? words.join(' ') : null
}

function sectionKeysText(doc: LovdataDocument): string {
  return doc.sections.map((section) => sectionToken(section.section)).join(' ')
}

/**
 * The titles and then the headings in document order, a chapter's once. The titles are in it
 * so that every word of a query may match in either ("byggteknisk radon").
 */
function headingsText(doc: LovdataDocument): string {
  const lines = [doc.title, doc.titleShort ?? '']
  let chapter: string | null = null
  for (const section of doc.sections) {
    if (section.chapter && section.chapter !== chapter) lines.push(section.chapter)
    chapter = section.chapter
    if (section.title) lines.push(section.title)
  }
  return lines.join('\n')
}

function documentRows(doc: LovdataDocument): DatasetRowOutput[] {
  // The text is stored once, in the document's body; each section keeps where its text lies.
  // The body is what the text index reads, so a search over the text costs no second copy. It
  // starts with the titles, so "every word in the titles or the text" is one match there.
  const keys = sectionKeysText(doc)
  let body = `${doc.title}\n${doc.titleShort ?? ''}\n${doc.looseText ?? ''}`
  const spans = doc.sections.map((s) => {
    body += `\n${s.label} ${s.title ?? ''}\n`
    const start = body.length
    body += s.text
    return { start, end: body.length }
  })
  const rows: DatasetRowOutput[] = [
    {
      table: 'documents',
      row: {
        document_id: doc.documentId,
        ref_id: doc.refId,
        legacy_id: doc.legacyId,
        kind: doc.kind,
        language: doc.language,
        title: doc.title,
        title_short: doc.titleShort,
        short_names: shortNames(doc),
        short_key: shortKey(doc.titleShort),
        ministry: doc.ministry,
        in_force_from: doc.inForceFrom,
        last_change_in_force: doc.lastChangeInForce,
        based_on: doc.basedOn,
        loose_text: doc.looseText,
        section_count: doc.sections.length,
        section_keys: keys,
      },
    },
    { table: 'headings', row: { document_id: doc.documentId, section_keys: keys, body: headingsText(doc) } },
    { table: 'texts', row: { document_id: doc.documentId, section_keys: keys, body } },
  ]
  doc.sections.forEach((section, position) => {
    rows.push({
      table: 'sections',
      row: {
        document_id: doc.documentId,
        position,
        section: section.section,
        label: section.label,
        title: section.title,
        chapter: section.chapter,
        text_start: spans[position]!.start,
        text_end: spans[position]!.end,
        url: section.url,
      },
    })
  })
  return rows
}

/**
 * A `.tar.bz2` archive, streamed: one parsed document at a time becomes its rows. The reader
 * (tar, bzip2 and the document parser) is loaded by the import that reads an archive, not with
 * the source: a process that serves the rules from the store never needs it.
 */
export const ruleArchiveContent: StreamContent = {
  format: { type: 'stream' },
  records: async function* (input) {
    const { readLovdataArchive } = await import('./archive-reader.js')
    yield* readLovdataArchive(input)
  },
  rows: () => (record) => documentRows(record as LovdataDocument),
}
