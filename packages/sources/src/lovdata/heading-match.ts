import type { DatasetReader } from '@allmenning/core/source'
import { matchesWord, wordsOf, type FtsQuery } from './fts-query.js'
import type { SectionRow } from './rule-rows.js'

/** The section whose heading a search matched, as `search_rules` names it in a hit. */
export interface MatchedSection {
  section: string
  title: string | null
  chapter: string | null
}

type HeadingColumns = Pick<SectionRow, 'document_id' | 'section' | 'title' | 'chapter'>

/** How many of the query's words and phrases a heading holds, as the index matches them. */
function score(heading: string | null, query: Pick<FtsQuery, 'words' | 'phrases'>, minPrefixLength: number): number {
  if (!heading) return 0
  const tokens = wordsOf(heading)
  const joined = ` ${tokens.join(' ')} `
  const words = query.words.filter((word) => tokens.some((token) => matchesWord(token, word, minPrefixLength))).length
  return words + query.phrases.filter((phrase) => joined.includes(` ${phrase} `)).length
}

/** The section of one document whose own heading, else whose chapter's heading, holds most of the query; the first of equals. */
function bestSection(
  sections: HeadingColumns[],
  query: Pick<FtsQuery, 'words' | 'phrases'>,
  minPrefixLength: number,
): MatchedSection | undefined {
  for (const field of ['title', 'chapter'] as const) {
    let best: HeadingColumns | undefined
    let bestScore = 0
    for (const section of sections) {
      const points = score(section[field], query, minPrefixLength)
      if (points > bestScore) {
        best = section
        bestScore = points
      }
    }
    if (best) return { section: best.section, title: best.title, chapter: best.chapter }
  }
  return undefined
}

/**
 * For documents found by a heading and not by their titles, the section whose heading
 * matched, so a hit says where to read (`§ 13-5 Radon`). Reads only the headings of the
 * page's documents, never their text.
 *
 * @example
 * await matchedSections(reader, ['SF/forskrift/2017-06-19-840'], { words: ['radon'], phrases: [] }, 3)
 * // Map { 'SF/forskrift/2017-06-19-840' => { section: '13-5', title: 'Radon', chapter: 'III. Radon' } }
 */
export async function matchedSections(
  reader: DatasetReader,
  documentIds: string[],
  query: Pick<FtsQuery, 'words' | 'phrases'>,
  minPrefixLength: number,
): Promise<Map<string, MatchedSection>> {
  const found = new Map<string, MatchedSection>()
  if (documentIds.length === 0 || query.words.length + query.phrases.length === 0) return found
  const rows = await reader.select<HeadingColumns>('sections', {
    where: { document_id: { in: documentIds } },
    columns: ['document_id', 'section', 'title', 'chapter'],
    orderBy: [{ column: 'document_id' }, { column: 'position' }],
  })
  const byDocument = new Map<string, HeadingColumns[]>()
  for (const row of rows) {
    const list = byDocument.get(row.document_id)
    if (list) list.push(row)
    else byDocument.set(row.document_id, [row])
  }
  for (const [documentId, sections] of byDocument) {
    const best = bestSection(sections, query, minPrefixLength)
    if (best) found.set(documentId, best)
  }
  return found
}
