/**
 * `@allmenning/core/source`: for source authors, the code that teaches the gateway a new
 * public service. Define sources, operations, upstreams and bulk datasets; call upstreams
 * through the typed client and check what they send; rank, fold and memoize as the built-in
 * sources do. The errors a source throws (`GatewayError`) and the host's side (`createGateway`)
 * are in `@allmenning/core`; fakes and checks for tests in `@allmenning/core/testing`.
 *
 * @example
 * import { defineOperation, defineSource, defineUpstream, UpstreamError } from '@allmenning/core/source'
 * import { GatewayError } from '@allmenning/core'
 *
 * const met = defineUpstream({ id: 'met', name: 'MET Norway', baseUrl: 'https://api.met.no/weatherapi', publisher: 'MET Norway', license: 'CC BY 4.0' })
 * // then defineOperation({ … }) for each operation and defineSource({ …, upstreams: [met], operations }) around them
 *
 * @module
 */
export {
  UpstreamError,
  upstreamNotConfigured,
  type UpstreamFailure,
  type UpstreamFailureDetail,
} from './http/upstream-error.js'
export {
  createUpstreamClient,
  buildUpstreamUrl,
  redactUrl,
  type UpstreamBody,
  type UpstreamClient,
  type UpstreamSettings,
  type UpstreamCallOptions,
  type UpstreamResponse,
  type QueryValues,
} from './upstream/upstream-client.js'
export {
  defineOperation,
  type OperationDefinition,
  type OperationDraft,
  type OperationContext,
  type OperationParameters,
  type OperationResult,
  type EntityInput,
  type PageWindow,
  type ParameterSchemas,
  type AnySchema,
} from './plugin/define-operation.js'
export {
  defineSource,
  type SourceDefinition,
  type RelatedSource,
  type EntityType,
  type MissingSetting,
} from './plugin/define-source.js'
export {
  deferOperations,
  loadOperations,
  outlineOf,
  type DeferredOperation,
  type DeferredOperations,
  type OperationKey,
  type OperationOutline,
} from './plugin/defer-operations.js'
export { deferEntitySearch, type DeferredEntitySearchOptions } from './plugin/defer-entity-search.js'
export { defineUpstream, type UpstreamDefinition } from './plugin/define-upstream.js'
export type { PlaceFieldDeclaration } from './plugin/place-fields.js'
export type { EntitySearch, EntitySearchContext, EntitySearchResult, EntityHit } from './plugin/entity-search.js'
export type { UpstreamProvenance } from './pipeline/provenance.js'
export {
  createTimedMemo,
  type MemoAnswer,
  type MemoRequest,
  type TimedMemo,
  type TimedMemoOptions,
} from './upstream/timed-memo.js'
export { listSizeCheck, type ListSizeRule, type PlausibilityCheck } from './upstream/plausibility-check.js'
export { checkUpstreamShape } from './upstream/upstream-shape.js'
export { foldNorwegian } from './text/fold-norwegian.js'
export {
  rankByName,
  matchTier,
  matchTierCount,
  normalizeName,
  type Named,
  type RankOptions,
  type Ranked,
} from './text/rank-by-name.js'
export {
  defineDataset,
  datasetFileContent,
  DatasetRowError,
  DatasetFileError,
  type DatasetDefinition,
  type DatasetTable,
  type DatasetFile,
  type DatasetContent,
  type DatasetFileContent,
  type TabularContent,
  type JsonArrayContent,
  type StreamContent,
  type ZipContent,
  type DelimitedFormat,
  type XlsxFormat,
  type DatasetOrigin,
  type DatasetSchedule,
  type DatasetFileContext,
  type DatasetRow,
  type DatasetRowOutput,
  type DatasetRowsOut,
  type DatasetValue,
  type DatasetColumnType,
} from './plugin/define-dataset.js'
export type {
  DatasetReader,
  DatasetSearch,
  DatasetQuery,
  DatasetCondition,
  DatasetVersion,
} from './plugin/dataset-store.js'
export type {
  DatasetDerivedOrigin,
  DatasetDeriveContext,
  DatasetDeriveProgress,
  DatasetDeriveResult,
} from './plugin/dataset-derivation.js'
export { datasetNotLoaded, isDatasetNotLoaded } from './dataset/dataset-not-loaded.js'
