import type { GatewayRequest, GatewayResponse } from '@allmenning/core'
import { stripMountPath } from '@allmenning/core/adapter'
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda'
import { eventBodyReader } from './event-body.js'
import { collectEventHeaders } from './event-headers.js'
import { joinEventQuery } from './event-query.js'
import { escapePath } from './escape-path.js'

/**
 * Translates an API Gateway REST API (payload 1.0) proxy event into a `GatewayRequest`.
 * Also serves HTTP APIs configured for payload format 1.0.
 *
 * Where the stage shows up in `path` depends on the host the client called:
 * - `{api}.execute-api…/prod/api/…`: AWS already removed the stage, `path` is `/api/…` and
 *   `requestContext.path` is `/prod/api/…`. Nothing is stripped, even when the stage is named
 *   like the first route segment (a stage called `api`).
 * - a custom domain: `path` equals `requestContext.path` and starts with the mapping's base
 *   path, followed by the stage only when the mapping names no stage. The base path is
 *   stripped first, then a leading `/{stage}` segment if one is there.
 * The one case no event can settle: a custom domain whose mapping names a stage called like
 * the first route segment. Do not call a stage `api`.
 *
 * @example
 * fromRestApiEvent(restApiEvent, '/data') // { method: 'GET', path: '/api/v1/kilder', query: 'a=1', … }
 */
export function fromRestApiEvent(event: APIGatewayProxyEvent, basePath: string): GatewayRequest {
  const { path, prefix } = mountRelativePath(event, basePath)
  return {
    method: event.httpMethod.toUpperCase(),
    path,
    // The values arrive decoded ('a&b=c', 'æøå', '+' already a space), so they are escaped
    // again; repeated keys only survive in the multi-value map.
    query: joinEventQuery(event.multiValueQueryStringParameters, event.queryStringParameters, encodeURIComponent),
    headers: collectEventHeaders(event.multiValueHeaders, event.headers),
    basePath: prefix,
    ...(event.requestContext?.identity?.sourceIp ? { clientAddress: event.requestContext.identity.sourceIp } : {}),
    readBody: eventBodyReader(event.body, event.isBase64Encoded),
  }
}

/**
 * The REST API result for a `GatewayResponse`. JSON is text, so never base64; HEAD and 304
 * answer an empty body.
 *
 * @example
 * return toRestApiResult(await gateway.handle(request))
 */
export function toRestApiResult(response: GatewayResponse): APIGatewayProxyResult {
  return {
    statusCode: response.status,
    headers: { ...response.headers },
    body: response.body ?? '',
    isBase64Encoded: false,
  }
}

function mountRelativePath(event: APIGatewayProxyEvent, basePath: string): { path: string; prefix: string } {
  const rawPath = event.path || '/'
  let path = escapePath(rawPath)
  let prefix = ''
  const afterBase = stripMountPath(path, basePath)
  if (afterBase !== undefined) {
    path = afterBase
    prefix = basePath
  }
  const stage = event.requestContext?.stage
  if (!stage || stage === '$default') return { path, prefix }
  const stageSegment = `/${stage}`
  if (event.requestContext.path === `${stageSegment}${rawPath}`) {
    // execute-api host: the client's URL had the stage, so links need it even though AWS
    // already removed it from `path`.
    return { path, prefix: `${stageSegment}${prefix}` }
  }
  const afterStage = stripMountPath(path, stageSegment)
  if (afterStage === undefined) return { path, prefix }
  return { path: afterStage, prefix: `${prefix}${stageSegment}` }
}
