export type { Gateway, GatewayRequest, GatewayResponse } from './gateway-request.js'
export { GatewayError, type ErrorCode, type ProblemDetail } from './gateway-error.js'
export { UpstreamError, type UpstreamFailure } from './upstream-error.js'
export {
  createUpstreamClient,
  buildUpstreamUrl,
  type UpstreamClient,
  type UpstreamSettings,
  type UpstreamCallOptions,
  type UpstreamResponse,
  type QueryValues,
} from './upstream-client.js'
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
} from './define-operation.js'
export { defineSource, type SourceDefinition, type UpstreamDefinition, type RelatedSource } from './define-source.js'
export { hasBody, maxRequestBodyBytes, readRequestBody } from './read-request-body.js'
export { createGateway, defaultUserAgent, type GatewayOptions, type ErrorKind } from './gateway.js'
export type { Feedback } from './feedback.js'
export type { Entity } from './envelope.js'
export type { Pagination } from './pagination.js'
export type { JsonSchema } from './json-schema.js'
export { normalizeMountPath, stripMountPath } from './mount-path.js'
export { createTimedMemo, type TimedMemo, type TimedMemoOptions } from './timed-memo.js'
export { foldNorwegian } from './fold-norwegian.js'
export { checkUpstreamShape } from './upstream-shape.js'
