import { defineDataset, type DatasetDefinition } from '@allmenning/core/source'
import { LOVDATA_API_BASE_URL, LOVDATA_RULE_FILES } from './lovdata-upstream.js'

/** Which collection a rule belongs to, as `search_rules` names it in `source`. */
export type RuleSource = 'laws' | 'regulations'

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
        // The reader (rows of a parsed document, then tar, bzip2 and the parser) is loaded by
        // the import that reads an archive: a process that serves the rules never needs it.
        content: () => import('./rule-datasets-reader.js').then((reader) => reader.ruleArchiveContent),
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
