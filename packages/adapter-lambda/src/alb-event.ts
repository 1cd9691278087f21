import type { GatewayRequest, GatewayResponse } from '@allmenning/core'
import { stripMountPath } from '@allmenning/core/adapter'
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
 * fromAlbEvent(albEvent, '/data') // { method: 'GET', path: '/api/v1/kilder', query: 'q=%C3%A6', … }
 */
export function fromAlbEvent(event: ALBEvent, basePath: string): GatewayRequest {
  const fullPath = escapePath(event.path || '/')
  const relative = stripMountPath(fullPath, basePath)
  const headers = collectEventHeaders(event.multiValueHeaders, event.headers)
  const clientAddress = albClientAddress(headers['x-forwarded-for'])
  return {
    method: event.httpMethod.toUpperCase(),
    path: relative ?? fullPath,
    query: joinEventQuery(event.multiValueQueryStringParameters, event.queryStringParameters, (text) => text),
    headers,
    basePath: relative === undefined ? '' : basePath,
    ...(clientAddress ? { clientAddress } : {}),
    readBody: eventBodyReader(event.body, event.isBase64Encoded),
  }
}

/**
 * The ALB result for a `GatewayResponse`. ALB wants a status line text and answers with
 * `multiValueHeaders` exactly when the target group has them enabled, which the event shows.
 *
 * @example
 * return toAlbResult(await gateway.handle(request), albEvent.multiValueHeaders !== undefined)
 */
export function toAlbResult(response: GatewayResponse, multiValueHeaders: boolean): ALBResult {
  const result: ALBResult = {
    statusCode: response.status,
    statusDescription: `${response.status} ${statusText(response.status)}`,
    body: response.body ?? '',
    isBase64Encoded: false,
  }
  if (multiValueHeaders) {
    result.multiValueHeaders = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name, [value]]),
    )
  } else {
    result.headers = { ...response.headers }
  }
  return result
}

/**
 * The client address of an ALB event. ALB carries no source IP field; it appends the address
 * it saw to X-Forwarded-For, so the last entry is the one a client cannot forge.
 *
 * @example
 * albClientAddress('198.51.100.7, 203.0.113.9') // '203.0.113.9'
 */
export function albClientAddress(forwardedFor: string | string[] | undefined): string | undefined {
  if (forwardedFor === undefined) return undefined
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((entry) => entry.trim())
  const last = entries.filter((entry) => entry !== '').pop()
  return last || undefined
}

/**
 * The reason phrase of a status (`404` → `Not Found`), from node:http's table, loaded on the
 * first ALB answer: importing node:http loads its client and server with it, a few
 * milliseconds of every cold start that a function behind API Gateway never uses.
 */
function statusText(status: number): string {
  return process.getBuiltinModule('node:http').STATUS_CODES[status] ?? 'Unknown'
}
