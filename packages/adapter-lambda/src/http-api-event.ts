import type { GatewayRequest, GatewayResponse } from '@allmenning/core'
import { stripMountPath } from '@allmenning/core/adapter'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda'
import { eventBodyReader } from './event-body.js'
import { escapePath } from './escape-path.js'

/**
 * Translates an API Gateway HTTP API (payload 2.0) event into a `GatewayRequest`.
 * `rawPath` carries a named stage (`/prod/api/…`) but not `$default`; the stage is stripped
 * first, then the optional custom-domain `basePath`. `rawQueryString` is used as is, since it
 * is exactly what the client sent.
 *
 * @example
 * fromHttpApiEvent(httpApiEvent, '') // { method: 'GET', path: '/api/v1/kilder', query: 'a=1&a=2', … }
 */
export function fromHttpApiEvent(event: APIGatewayProxyEventV2, basePath: string): GatewayRequest {
  const { path, prefix } = mountRelativePath(event, basePath)
  return {
    method: event.requestContext.http.method.toUpperCase(),
    path,
    query: event.rawQueryString ?? '',
    headers: collectHeaders(event),
    basePath: prefix,
    ...(event.requestContext.http.sourceIp ? { clientAddress: event.requestContext.http.sourceIp } : {}),
    readBody: eventBodyReader(event.body, event.isBase64Encoded),
  }
}

/**
 * The HTTP API result for a `GatewayResponse`: always the structured form, so API Gateway
 * never guesses a status or content type. JSON is never base64.
 *
 * @example
 * return toHttpApiResult(await gateway.handle(request))
 */
export function toHttpApiResult(response: GatewayResponse): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: response.status,
    headers: { ...response.headers },
    body: response.body ?? '',
    isBase64Encoded: false,
  }
}

function mountRelativePath(event: APIGatewayProxyEventV2, basePath: string): { path: string; prefix: string } {
  let path = escapePath(event.rawPath || '/')
  let prefix = ''
  const stage = event.requestContext.stage
  if (stage && stage !== '$default') {
    const afterStage = stripMountPath(path, `/${stage}`)
    if (afterStage !== undefined) {
      path = afterStage
      prefix = `/${stage}`
    }
  }
  const afterBase = stripMountPath(path, basePath)
  if (afterBase !== undefined) {
    path = afterBase
    prefix += basePath
  }
  return { path, prefix }
}

/**
 * Payload 2.0 already joined repeated headers with ',' (they cannot be split back safely) and
 * moved Cookie into `cookies`; the Cookie header is rebuilt the way a client sends it.
 */
function collectHeaders(event: APIGatewayProxyEventV2): GatewayRequest['headers'] {
  const headers: GatewayRequest['headers'] = {}
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value
  }
  if (event.cookies && event.cookies.length > 0 && headers['cookie'] === undefined) {
    headers['cookie'] = event.cookies.join('; ')
  }
  return headers
}
