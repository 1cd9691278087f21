import type { APIGatewayProxyEvent } from 'aws-lambda'
import { describe, expect, it } from 'vitest'
import { createLambdaHandler } from './index.js'
import { JSON_BODY, JSON_LENGTH, recordingGateway } from '../../../test/support/recording-gateway.js'

/** Shaped like a real REST API proxy event on the execute-api host, stage `prod`. */
function restEvent(
  overrides: Partial<APIGatewayProxyEvent> = {},
  context: Partial<APIGatewayProxyEvent['requestContext']> = {},
): APIGatewayProxyEvent {
  const path = overrides.path ?? '/api/v1/kilder/statnett/get_physical_flow'
  return {
    resource: '/{proxy+}',
    path,
    httpMethod: 'GET',
    headers: {
      Accept: 'application/json',
      Host: 'abc123.execute-api.eu-north-1.amazonaws.com',
      'X-Tag': 'two',
      'X-Forwarded-Proto': 'https',
    },
    multiValueHeaders: {
      Accept: ['application/json'],
      Host: ['abc123.execute-api.eu-north-1.amazonaws.com'],
      'X-Tag': ['one', 'two'],
      'X-Forwarded-Proto': ['https'],
    },
    queryStringParameters: { area: 'NO2', q: 'a&b=c', navn: 'æøå' },
    multiValueQueryStringParameters: { area: ['NO1', 'NO2'], q: ['a&b=c'], navn: ['æøå'] },
    pathParameters: { proxy: path.slice(1) },
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    ...overrides,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      authorizer: undefined,
      domainName: 'abc123.execute-api.eu-north-1.amazonaws.com',
      domainPrefix: 'abc123',
      extendedRequestId: 'Ab1=',
      httpMethod: overrides.httpMethod ?? 'GET',
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: '203.0.113.7',
        user: null,
        userAgent: 'curl/8.5.0',
        userArn: null,
      },
      path: `/prod${path}`,
      protocol: 'HTTP/1.1',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      requestTimeEpoch: 1_700_000_000_000,
      resourceId: 'ab12cd',
      resourcePath: '/{proxy+}',
      stage: 'prod',
      ...context,
    },
  }
}

describe('REST API (payload 1.0) events', () => {
  it('translates path, re-encoded query and multi-value headers', async () => {
    const { gateway, last } = recordingGateway()
    const result = await createLambdaHandler(gateway)(restEvent())

    const { request } = last()
    expect(request.method).toBe('GET')
    expect(request.path).toBe('/api/v1/kilder/statnett/get_physical_flow')
    expect(request.query).toBe('area=NO1&area=NO2&q=a%26b%3Dc&navn=%C3%A6%C3%B8%C3%A5')
    const parsed = new URLSearchParams(request.query)
    expect(parsed.getAll('area')).toEqual(['NO1', 'NO2'])
    expect(parsed.get('q')).toBe('a&b=c')
    expect(parsed.get('navn')).toBe('æøå')
    expect(request.headers['x-tag']).toEqual(['one', 'two'])
    expect(request.headers['accept']).toBe('application/json')
    expect(request.headers['Accept']).toBeUndefined()
    // The client called /prod/api/…, so links must carry the stage.
    expect(request.basePath).toBe('/prod')

    expect(result).toEqual({
      statusCode: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': JSON_LENGTH,
        etag: 'W/"abc"',
        'cache-control': 'public, max-age=60',
      },
      body: JSON_BODY,
      isBase64Encoded: false,
    })
  })

  it('falls back to the single-value maps when the multi-value ones are missing', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway)(
      restEvent({
        multiValueQueryStringParameters: null,
        multiValueHeaders: {},
        queryStringParameters: { 'a b': 'x+y' },
      }),
    )
    expect(last().request.query).toBe('a%20b=x%2By')
    expect(last().request.headers['x-tag']).toBe('two')
  })

  it('gives an empty query when there is none', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway)(
      restEvent({ queryStringParameters: null, multiValueQueryStringParameters: null }),
    )
    expect(last().request.query).toBe('')
  })

  it('does not strip a stage that is named like the first route segment on the execute-api host', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway)(
      restEvent({ path: '/api/v1/kilder' }, { stage: 'api', path: '/api/api/v1/kilder' }),
    )
    expect(last().request.path).toBe('/api/v1/kilder')
    expect(last().request.basePath).toBe('/api')
  })

  it('strips a custom-domain base path (the mapping names the stage)', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway, { basePath: 'gw/' })(
      restEvent({ path: '/gw/api/v1/kilder' }, { path: '/gw/api/v1/kilder', domainName: 'data.example.no' }),
    )
    expect(last().request.path).toBe('/api/v1/kilder')
    expect(last().request.basePath).toBe('/gw')
  })

  it('strips base path then stage when the mapping names no stage', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway, { basePath: '/gw' })(
      restEvent({ path: '/gw/prod/api/v1/kilder' }, { path: '/gw/prod/api/v1/kilder', domainName: 'data.example.no' }),
    )
    expect(last().request.path).toBe('/api/v1/kilder')
    expect(last().request.basePath).toBe('/gw/prod')
  })

  it('strips the stage from a custom domain mapped at the root without a stage', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway)(restEvent({ path: '/prod/api/v1/kilder' }, { path: '/prod/api/v1/kilder' }))
    expect(last().request.path).toBe('/api/v1/kilder')
    expect(last().request.basePath).toBe('/prod')
  })

  it('leaves a path outside the base path whole, for the gateway to answer 404', async () => {
    const { gateway, last } = recordingGateway()
    const result = await createLambdaHandler(gateway, { basePath: '/gw' })(
      restEvent({ path: '/gwx/api/v1' }, { path: '/gwx/api/v1' }),
    )
    expect(last().request.path).toBe('/gwx/api/v1')
    expect(result.statusCode).toBe(404)
  })

  it('keeps an encoded path encoded', async () => {
    const { gateway, last } = recordingGateway()
    await createLambdaHandler(gateway)(restEvent({ path: '/api/v1/kilder/a%20b%2Fc' }))
    expect(last().request.path).toBe('/api/v1/kilder/a%20b%2Fc')
  })

  it('decodes a base64 body into bytes and passes text bodies as text', async () => {
    const { gateway, seen } = recordingGateway()
    const handler = createLambdaHandler(gateway)
    await handler(
      restEvent({ httpMethod: 'POST', body: Buffer.from('{"q":"æ"}').toString('base64'), isBase64Encoded: true }),
    )
    await handler(restEvent({ httpMethod: 'POST', body: '{"q":"æ"}', isBase64Encoded: false }))
    await handler(restEvent())
    expect(Buffer.from(seen[0]!.body as Uint8Array).toString('utf8')).toBe('{"q":"æ"}')
    expect(seen[1]!.body).toBe('{"q":"æ"}')
    expect(seen[2]!.body).toBeUndefined()
    expect(seen[0]!.request.method).toBe('POST')
  })

  it('answers HEAD and 304 with an empty body and the validators kept', async () => {
    const { gateway } = recordingGateway()
    const handler = createLambdaHandler(gateway)
    const head = await handler(restEvent({ httpMethod: 'HEAD' }))
    expect(head.body).toBe('')
    expect(head.isBase64Encoded).toBe(false)
    expect(head.headers).toMatchObject({ 'content-length': JSON_LENGTH, etag: 'W/"abc"' })

    const notModified = await handler(
      restEvent({ headers: { 'If-None-Match': 'W/"abc"' }, multiValueHeaders: { 'If-None-Match': ['W/"abc"'] } }),
    )
    expect(notModified.statusCode).toBe(304)
    expect(notModified.body).toBe('')
    expect(notModified.headers).toMatchObject({ etag: 'W/"abc"', 'cache-control': 'public, max-age=60' })
  })
})
