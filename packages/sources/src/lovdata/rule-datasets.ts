import {
  defineDataset,
  type DatasetDefinition,
  type DatasetRowOutput,
  type StreamContent,
} from '@allmenning/core/source'
import type { LovdataDocument } from './parse-document.js'
import { LOVDATA_API_BASE_URL, LOVDATA_RULE_FILES } from './lovdata-upstream.js'

/** Which collection a rule belongs to, as `search_rules` names it in `source`. */
export type RuleSource = 'laws' | 'regulations'

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
 * When Lovdata last rebuilt a file, from `/v1/publicData/list`: the archives themselves carry
 * no Last-Modified, so this is the date a loaded version stands at.
 *
 * @example
 * await listedDate('gjeldende-lover.tar.bz2') // '2026-11-20T04:12:00Z'
 */
export async function listedDate(file: string, baseUrl = LOVDATA_API_BASE_URL): Promise<string | null> {
  // The client is loaded here, not with the datasets: only a sync asks when a file was rebuilt,
  // while every gateway that serves the rules defines the datasets.
  const { createLovdataPublicData } = await import('./public-data-client.js')
  const files = await createLovdataPublicData({ baseUrl }).list()
  return files.find((offered) => offered.filename === file)?.lastModified ?? null
}

/**
 * A `.tar.bz2` archive, streamed: one parsed document at a time becomes its rows. The reader
 * (tar, bzip2 and the document parser) is loaded by the import that reads an archive, not with
 * the source: a process that serves the rules from the store never needs it.
 */
const archiveContent: StreamContent = {
  format: { type: 'stream' },
  records: async function* (input) {
    const { readLovdataArchive } = await import('./archive-reader.js')
    yield* readLovdataArchive(input)
  },
  rows: () => (record) => documentRows(record as LovdataDocument),
}

function ruleDataset(id: string, file: string, title: string, description: string): DatasetDefinition {
  return defineDataset({
    id,
    title,
    description,
    publisher: 'Stiftelsen Lovdata',
    license: 'NLOD 2.0',
    attribution: 'Kilde: Stiftelsen Lovdata (Norsk lisens for offentlige data, NLOD 2.0).',
    origin: { kind: 'download', page: 'https://api.lovdata.no/publicData' },
    changes: 'daily',
    // A file that is not a Lovdata document is skipped by the reader; a few are normal.
    files: [
      {
        name: file,
        url: `${LOVDATA_API_BASE_URL}/v1/publicData/get/${file}`,
        publishedAt: () => listedDate(file),
        content: archiveContent,
      },
    ],
    tables: [
      {
        name: 'documents',
        columns: {
          document_id: 'text',
          ref_id: 'text',
          legacy_id: 'text',
          kind: 'text',
          language: 'text',
          title: 'text',
          title_short: 'text',
          short_names: 'text',
          short_key: 'text',
          ministry: 'text',
          in_force_from: 'text',
          last_change_in_force: 'text',
          based_on: 'text',
          loose_text: 'text',
          section_count: 'integer',
          section_keys: 'text',
        },
        indexes: [['document_id'], ['legacy_id'], ['short_key']],
        key: ['document_id'],
        // A match in the names a law goes by outweighs one in its long title, and both a section reference.
        fullText: { columns: ['short_names', 'title_short', 'title', 'section_keys'], weights: [20, 10, 4, 1] },
      },
      {
        name: 'headings',
        columns: { document_id: 'text', section_keys: 'text', body: 'text' },
        indexes: [['document_id']],
        key: ['document_id'],
        fullText: { columns: ['section_keys', 'body'] },
      },
      {
        name: 'texts',
        columns: { document_id: 'text', section_keys: 'text', body: 'text' },
        indexes: [['document_id']],
        key: ['document_id'],
        fullText: { columns: ['section_keys', 'body'] },
      },
      {
        name: 'sections',
        columns: {
          document_id: 'text',
          position: 'integer',
          section: 'text',
          label: 'text',
          title: 'text',
          chapter: 'text',
          text_start: 'integer',
          text_end: 'integer',
          url: 'text',
        },
        indexes: [
          ['document_id', 'position'],
          ['document_id', 'section'],
        ],
      },
    ],
  })
}

/** Every law in force (`gjeldende-lover.tar.bz2`), loaded with `npx allmenning datasets sync lovdata_lover`. */
export const lovdataLaws = ruleDataset(
  'lovdata_lover',
  LOVDATA_RULE_FILES.laws,
  'Lovdata: laws in force (gjeldende lover)',
  'Every Norwegian law in force, consolidated, with header fields (document id, legacy id, titles, ministry, dates) and every section with its text.',
)

/** Every central regulation in force (`gjeldende-sentrale-forskrifter.tar.bz2`), loaded with `npx allmenning datasets sync lovdata_forskrifter`. */
export const lovdataRegulations = ruleDataset(
  'lovdata_forskrifter',
  LOVDATA_RULE_FILES.regulations,
  'Lovdata: central regulations in force (gjeldende sentrale forskrifter)',
  'Every central Norwegian regulation in force, consolidated, with header fields and every section with its text.',
)

/** The dataset a collection is loaded in. */
export const RULE_DATASETS: Record<RuleSource, DatasetDefinition> = {
  laws: lovdataLaws,
  regulations: lovdataRegulations,
}

/** The collection a document id belongs to: laws live under `NL/`, central regulations under `SF/`. */
export function ruleSourceOf(kind: string): RuleSource {
  return kind === 'forskrift' ? 'regulations' : 'laws'
}
