import { STATUS_CODES } from 'node:http'
import { stripMountPath, type GatewayRequest, type GatewayResponse } from '@allmenning/core'
import type { ALBEvent, ALBResult } from 'aws-lambda'
import { eventBodyReader } from './event-body.js'
import { collectEventHeaders } from './event-headers.js'
import { joinEventQuery } from './event-query.js'
import { escapePath } from './escape-path.js'

/**
 * Translates an Application Load Balancer event into a `GatewayRequest`. ALB hands over the
 * path and the query exactly as the client sent them (still percent-encoded), so the query is
 * rejoined without re-encoding. With multi-value headers enabled on the target group only the
 * `multiValue…` maps are present, and they keep repeated keys.
 *
 * @example
 * fromAlbEvent(event, '/data') // { method: 'GET', path: '/api/v1/kilder', query: 'q=%C3%A6', … }
 */
export function fromAlbEvent(event: ALBEvent, basePath: string): GatewayRequest {
  const fullPath = escapePath(event.path || '/')
  const relative = stripMountPath(fullPath, basePath)
  return {
    method: event.httpMethod.toUpperCase(),
    path: relative ?? fullPath,
    query: joinEventQuery(event.multiValueQueryStringParameters, event.queryStringParameters, (text) => text),
    headers: collectEventHeaders(event.multiValueHeaders, event.headers),
    basePath: relative === undefined ? '' : basePath,
    readBody: eventBodyReader(event.body, event.isBase64Encoded),
  }
}

/**
 * The ALB result for a `GatewayResponse`. ALB wants a status line text and answers with
 * `multiValueHeaders` exactly when the target group has them enabled, which the event shows.
 *
 * @example
 * return toAlbResult(await gateway.handle(request), event.multiValueHeaders !== undefined)
 */
export function toAlbResult(response: GatewayResponse, multiValueHeaders: boolean): ALBResult {
  const result: ALBResult = {
    statusCode: response.status,
    statusDescription: `${response.status} ${STATUS_CODES[response.status] ?? 'Unknown'}`,
    body: response.body ?? '',
    isBase64Encoded: false,
  }
  if (multiValueHeaders) {
    result.multiValueHeaders = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, [value]]))
  } else {
    result.headers = { ...response.headers }
  }
  return result
}
