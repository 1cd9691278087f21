export type { Gateway, GatewayRequest, GatewayResponse } from './http/gateway-request.js'
export { GatewayError, type ErrorCode, type ProblemDetail } from './http/gateway-error.js'
export { UpstreamError, type UpstreamFailure } from './upstream/upstream-error.js'
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
  type OperationContext,
  type OperationParameters,
  type OperationResult,
  type EntityInput,
  type PageWindow,
  type ParameterSchemas,
  type AnySchema,
} from './plugin/define-operation.js'
export { defineSource, type SourceDefinition, type RelatedSource, type EntityType } from './plugin/define-source.js'
export {
  defineUpstream,
  upstreamEnvironmentVariable,
  upstreamOverridesFromEnvironment,
  type UpstreamDefinition,
  type UpstreamOverride,
} from './plugin/define-upstream.js'
export { overrideUpstreams } from './plugin/override-upstreams.js'
export { placeFields, selectablePlaceFields, type PlaceField } from './plugin/place-fields.js'
export type { EntitySearch, EntitySearchContext, EntitySearchResult, EntityHit } from './plugin/entity-search.js'
export { bodyText, checkParsedBodySize, hasBody, maxRequestBodyBytes, readRequestBody } from './http/read-request-body.js'
export { createGateway, defaultUserAgent, type GatewayOptions, type ErrorKind, type LocalGateway } from './gateway.js'
export type {
  GatewayExtension,
  ExtensionAnswer,
  ExtensionCall,
  ExtensionHost,
  ExtensionOperation,
  ExtensionParameter,
  ExtensionRoute,
  ExtensionSource,
  InvokedAnswer,
} from './http/gateway-extension.js'
export type { Links } from './http/links.js'
export { jsonContentType } from './http/json-response.js'
export { createLruMap, type LruMap } from './cache/lru-map.js'
export { createMemoryCacheStore, type MemoryCacheStore, type MemoryCacheStoreOptions } from './cache/memory-cache-store.js'
export type { Feedback } from './feedback/feedback.js'
export type { Explorer, ExplorerAsset, ExplorerPageContext } from './describe/explorer.js'
export type { Entity, OperationEnvelope } from './pipeline/envelope.js'
export type { Pagination } from './pipeline/pagination.js'
export type { JsonSchema } from './compile/json-schema.js'
export { normalizeMountPath, stripMountPath } from './http/mount-path.js'
export { createTimedMemo, type TimedMemo, type TimedMemoOptions } from './upstream/timed-memo.js'
export { listSizeCheck, type ListSizeRule, type PlausibilityCheck } from './upstream/plausibility-check.js'
export { foldNorwegian } from './text/fold-norwegian.js'
export { rankByName, matchTier, matchTierCount, normalizeName, type Named, type RankOptions, type Ranked } from './text/rank-by-name.js'
export type { UpstreamProvenance } from './pipeline/provenance.js'
export { checkUpstreamShape } from './upstream/upstream-shape.js'
export type { RateLimitOptions, RateLimitQuota } from './limit/rate-limit.js'
export type { SharedRedisClient } from './cache/shared-redis-client.js'
export { RedisNotConnectedError } from './cache/redis-outage.js'
export type { SharedFlightOptions } from './cache/shared-flight.js'
export type { UpstreamFailureDetail } from './upstream/upstream-error.js'
export { hostErrorResponse, notFoundResponse } from './http/host-error.js'
export {
  defineDataset,
  loadCommand,
  DatasetRowError,
  DatasetFileError,
  type DatasetDefinition,
  type DatasetTable,
  type DatasetFile,
  type DatasetContent,
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
export type { DatasetStore, DatasetReader, DatasetSearch, DatasetQuery, DatasetCondition, DatasetVersion } from './dataset/dataset-store.js'
export { datasetNotLoaded, isDatasetNotLoaded } from './dataset/dataset-not-loaded.js'
export { answerServerRefusals } from './http/server-refusals.js'
export { closeGracefully } from './http/graceful-close.js'
