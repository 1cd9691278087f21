import { defineSource, type SourceDefinition } from '@allmenning/core'
import { DOMSTOL_UPSTREAM_ID } from './case-law-upstream.js'
import { createGetCaseLaw } from './get-case-law.js'
import { createHoyesterettClient, DOMSTOL_ORIGIN } from './hoyesterett-client.js'
import { createListCaseLaw } from './list-case-law.js'
import { LOVDATA_API_BASE_URL, LOVDATA_UPSTREAM } from './public-data-client.js'
import { createSearchCaseLaw } from './search-case-law.js'

export { createLovdataPublicData, LOVDATA_API_BASE_URL, LOVDATA_RULE_FILES, type LovdataPublicData, type PublicDataFile } from './public-data-client.js'
export { readLovdataArchive, readArchiveFiles, LovdataArchiveError, type ArchiveFile } from './archive-reader.js'
export { parseLovdataDocument, LovdataDocumentError, type LovdataDocument, type LovdataSection } from './parse-document.js'
export { parseDocumentId, normalizeSection, type DocumentRef } from './document-id.js'
export { buildFtsQuery, type FtsQuery, type FtsQueryOptions } from './fts-query.js'
export { createHoyesterettClient, type HoyesterettClient, type Decision } from './hoyesterett-client.js'

/** Options of the {@link lovdata} source. */
export interface LovdataOptions {
  /** Base URL of Lovdata's API (public data); `https://api.lovdata.no` by default. */
  baseUrl?: string
  /** Base URL domstol.no is read from; `https://www.domstol.no` by default. */
  domstolBaseUrl?: string
  /** Per-call time limit in milliseconds, when it should differ from the gateway's. */
  timeoutMs?: number
  /** The clock that decides "this year" for search_case_law; now by default. */
  now?: () => Date
}

/**
 * The built-in legal source: Supreme Court (Høyesterett) decisions from domstol.no
 * (`list_case_law`, `search_case_law`, `get_case_law`). Laws and central regulations from
 * Lovdata's public data (`search_rules`, `get_rule`, `get_section`) join when the dataset
 * store lands. Each call of the factory keeps its own cache of domstol.no.
 *
 * @example
 * const gateway = createGateway({ sources: [lovdata()] })
 * // GET /api/v1/kilder/lovdata/get_case_law?ref=HR-2025-844-A
 */
export function lovdata(options: LovdataOptions = {}): SourceDefinition {
  const hoyesterett = createHoyesterettClient()
  const now = options.now ?? (() => new Date())
  const timeout = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}
  return defineSource({
    id: 'lovdata',
    name: 'Lovdata and Høyesterett',
    description:
      'Norwegian law: every law and central regulation in force, section by section, from Lovdata’s free public ' +
      'data, and the Supreme Court’s (Høyesterett’s) decisions with summaries from domstol.no.',
    documentation: 'https://api.lovdata.no/publicData',
    topic: 'law',
    keywords: ['lov', 'lover', 'forskrift', 'forskrifter', 'paragraf', 'høyesterett', 'dom', 'avgjørelse', 'rettspraksis', 'law', 'regulation', 'supreme court', 'case law'],
    synonyms: ['lovdata', 'lovverk', 'rettskilder', 'domstol', 'domstol.no', 'hoyesterett', 'statute', 'legislation', 'court decision', 'ruling', 'judgment'],
    contentLanguages: ['no', 'nn'],
    publisher: 'Stiftelsen Lovdata (laws and regulations); Norges domstoler, domstol.no (Høyesterett decisions)',
    license: 'NLOD 2.0 — Kilde: Stiftelsen Lovdata',
    cacheTtlSeconds: 3600,
    upstreams: [
      { ...LOVDATA_UPSTREAM, baseUrl: options.baseUrl ?? LOVDATA_API_BASE_URL, ...timeout },
      { id: DOMSTOL_UPSTREAM_ID, name: 'domstol.no', baseUrl: options.domstolBaseUrl ?? DOMSTOL_ORIGIN, ...timeout },
    ],
    operations: [createSearchCaseLaw(hoyesterett, now), createListCaseLaw(hoyesterett), createGetCaseLaw(hoyesterett)],
  })
}
