export { lovdata, type LovdataOptions } from './lovdata-source.js'
export { lovdataApi, LOVDATA_API_BASE_URL, LOVDATA_RULE_FILES } from './lovdata-upstream.js'
export { createLovdataPublicData, type LovdataPublicData, type PublicDataFile } from './public-data-client.js'
export { readLovdataArchive, readArchiveFiles, LovdataArchiveError, type ArchiveFile } from './archive-reader.js'
export {
  parseLovdataDocument,
  LovdataDocumentError,
  type LovdataDocument,
  type LovdataSection,
} from './parse-document.js'
export { parseDocumentId, normalizeSection, type DocumentRef } from './document-id.js'
export { buildFtsQuery, type FtsQuery, type FtsQueryOptions } from './fts-query.js'
export { createHoyesterettClient, type HoyesterettClient, type Decision } from './hoyesterett-client.js'
export { domstolSite } from './case-law-upstream.js'
export { lovdataLaws, lovdataRegulations, type RuleSource } from './rule-datasets.js'
