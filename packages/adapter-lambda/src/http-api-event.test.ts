import type { APIGatewayProxyEventV2 } from 'aws-lambda'
import { describe, expect, it } from 'vitest'
import { createLambdaHandler } from './index.js'
import { JSON_BODY, recordingGateway } from '../../../test/support/recording-gateway.js'

/** Shaped like a real HTTP API payload 2.0 event; stage `$default` unless told otherwise. */
function httpEvent(
  overrides: Partial<APIGatewayProxyEventV2> = {},
  stage = '$default',
  method = 'GET',
): APIGatewayProxyEventV2 {
  const rawPath = overrides.rawPath ?? '/api/v1/kilder/statnett/get_physical_flow'
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: 'area=NO1&area=NO2&q=a%26b%3Dc&navn=%C3%A6%C3%B8%C3%A5',
    cookies: ['session=abc', 'theme=dark'],
    headers: {
      accept: 'application/json',
      host: 'xyz789.execute-api.eu-north-1.amazonaws.com',
      'x-tag': 'one,two',
      'x-forwarded-proto': 'https',
    },
    queryStringParameters: { area: 'NO1,NO2', q: 'a&b=c', navn: 'æøå' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'xyz789',
      domainName: 'xyz789.execute-api.eu-north-1.amazonaws.com',
      domainPrefix: 'xyz789',
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' },
      requestId: 'JKJaXmPLvHcESHA=',
      routeKey: '$default',
      stage,
      time: '10/Mar/2024:10:00:00 +0000',
      timeEpoch: 1_710_064_800_000,
    },
    isBase64Encoded: false,
    ...overrides,
  }
}

describe('HTTP API (payload 2.0) events', () => {
  it('uses rawQueryString as is and rebuilds the Cookie header ($default stage)', async () => {
    const { gateway, last } = recordingGateway()
    const result = await createLambdaHandler(gateway)(httpEvent())
    const { request } = last()
    expect(request.method).toBe('GET')
    expect(request.path).toBe('/api/v1/kilder/statnett/get_physical_flow')
    expect(request.query).toBe('area=NO1&area=NO2&q=a%26b%3Dc&navn=%C3%A6%C3%B8%C3%A5')
    expect(request.headers['x-tag']).toBe('one,two')
    expect(request.headers['cookie']).toBe('session=abc; theme=dark')
    expect(request.basePath).toBe('')
    expect(result).toMatchObject({ statusCode: 200, body: JSON_BODY, isBase64Encoded: false })
    expect(result.headers).toMatchObject({ etag: 'W/"abc"' })
  })

  it('strips a named stage from rawPath and reports it as basePath', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway)(httpEvent({ rawPath: '/prod/api/v1/kilder' }, 'prod'))
    expect(last().request.path).toBe('/api/v1/kilder')
    expect(last().request.basePath).toBe('/prod')
  })

  it('strips stage then base path, per segment', async () => {
    const { gateway, last, seen } = recordingGateway()
    const handler = createLambdaHandler(gateway, { basePath: '/gw' })
    await handler(httpEvent({ rawPath: '/prod/gw/api/v1/kilder' }, 'prod'))
    expect(last().request.path).toBe('/api/v1/kilder')
    expect(last().request.basePath).toBe('/prod/gw')
    // Custom domain: the mapping chose the stage, rawPath only has the base path.
    await handler(httpEvent({ rawPath: '/gw/api/v1/kilder' }, 'prod'))
    expect(last().request.path).toBe('/api/v1/kilder')
    expect(last().request.basePath).toBe('/gw')
    await handler(httpEvent({ rawPath: '/production/api' }, 'prod'))
    expect(last().request.path).toBe('/production/api')
    expect(seen).toHaveLength(3)
  })

  it('re-escapes the path HTTP APIs hand over decoded', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway)(httpEvent({ rawPath: '/api/v1/kilder/æ ø?#%' }))
    expect(last().request.path).toBe('/api/v1/kilder/%C3%A6%20%C3%B8%3F%23%25')
  })

  it('reads a base64 body as bytes', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway)(
      httpEvent({ body: Buffer.from([0, 1, 2, 255]).toString('base64'), isBase64Encoded: true }, '$default', 'POST'),
    )
    expect([...(last().body as Uint8Array)]).toEqual([0, 1, 2, 255])
    expect(last().request.method).toBe('POST')
  })

  it('answers HEAD with an empty body and Content-Length kept', async () => {
    const { gateway } = recordingGateway()
    const result = await createLambdaHandler(gateway)(httpEvent({}, '$default', 'HEAD'))
    expect(result.statusCode).toBe(200)
    expect(result.body).toBe('')
    expect(result.headers?.['content-length']).toBe(String(Buffer.byteLength(JSON_BODY)))
  })
})
