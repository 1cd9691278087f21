import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { DECISION_ENTITY, domstolSite } from './case-law-upstream.js'
import { lovdataApi } from './lovdata-upstream.js'
import { lovdataLaws, lovdataRegulations } from './rule-datasets.js'
import { LAW_ENTITY, REGULATION_ENTITY, SECTION_ENTITY } from './rule-entities.js'
import { hasDigit } from '../shared/has-digit.js'

// The source apart from index.ts, which also exports the archive reader used by imports: the
// built-in sources import this file, so a bundle of them does not carry the reader with it.

/** Options of the {@link lovdata} source. */
export interface LovdataOptions {
  /** The clock that decides "this year" for search_case_law; now by default. */
  now?: () => Date
}

/**
 * The built-in legal source: Supreme Court (Høyesterett) decisions from domstol.no
 * (`list_case_law`, `search_case_law`, `get_case_law`), and laws and central regulations from
 * Lovdata's public data (`search_rules`, `get_rule`, `get_section`) once the datasets
 * `lovdata_lover` and `lovdata_forskrifter` are loaded. Each call of the factory keeps its own cache of domstol.no.
 *
 * @example
 * const gateway = createGateway({ sources: [lovdata()], upstreams: { domstol: { timeoutMs: 5000 } } })
 * // GET /api/v1/kilder/lovdata/get_case_law?ref=HR-2025-844-A
 */
export function lovdata(options: LovdataOptions = {}): SourceDefinition {
  const now = options.now ?? (() => new Date())
  return defineSource({
    id: 'lovdata',
    name: 'Lovdata and Høyesterett',
    description:
      'Norwegian law: every law and central regulation in force, section by section, from Lovdata’s free public ' +
      'data, and the Supreme Court’s (Høyesterett’s) decisions with summaries from domstol.no.',
    documentation: 'https://api.lovdata.no/publicData',
    topic: 'law',
    keywords: [
      'lov',
      'lover',
      'forskrift',
      'forskrifter',
      'paragraf',
      'høyesterett',
      'dom',
      'avgjørelse',
      'rettspraksis',
      'law',
      'regulation',
      'supreme court',
      'case law',
    ],
    synonyms: [
      'lovdata',
      'lovverk',
      'rettskilder',
      'domstol',
      'domstol.no',
      'hoyesterett',
      'statute',
      'legislation',
      'court decision',
      'ruling',
      'judgment',
    ],
    contentLanguages: ['no', 'nn'],
    cacheTtlSeconds: 3600,
    // Lovdata first: the rules operations (and the dataset sync) use it; the case-law ones use domstol.no.
    upstreams: [lovdataApi, domstolSite],
    datasets: [lovdataLaws, lovdataRegulations],
    entityTypes: {
      [DECISION_ENTITY]: { operation: 'get_case_law', parameter: 'ref' },
      [LAW_ENTITY]: { operation: 'get_rule', parameter: 'document_id' },
      [REGULATION_ENTITY]: { operation: 'get_rule', parameter: 'document_id' },
      [SECTION_ENTITY]: { operation: 'get_section', parameter: 'document_id' },
    },
    // Imported when a search first needs it; only a text with a digit or `§` (an id, a case number,
    // a section) loads it to be recognized.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).lovdataEntitySearch, {
      mayRecognize: (text) => hasDigit(text) || text.includes('§'),
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        search_rules: 'searchRules',
        get_rule: 'getRule',
        get_section: 'getSection',
        search_case_law: 'searchCaseLaw',
        list_case_law: 'listCaseLaw',
        get_case_law: 'getCaseLaw',
      },
      async () => (await import('./operations.js')).lovdataOperations(now),
    ),
  })
}
