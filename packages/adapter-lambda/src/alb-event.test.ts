import type { ALBEvent } from 'aws-lambda'
import { describe, expect, it } from 'vitest'
import { createLambdaHandler } from './index.js'
import { JSON_BODY, recordingGateway } from '../../../test/support/recording-gateway.js'

const targetGroup = {
  elb: {
    targetGroupArn: 'arn:aws:elasticloadbalancing:eu-north-1:123456789012:targetgroup/allmenning/6d0ecf831eec9f09',
  },
}

/** ALB without multi-value headers: last value of a repeated header or key wins, values still encoded. */
function albEvent(overrides: Partial<ALBEvent> = {}): ALBEvent {
  return {
    requestContext: targetGroup,
    httpMethod: 'GET',
    path: '/api/v1/kilder/a%20b',
    queryStringParameters: { area: 'NO2', navn: '%C3%A6%C3%B8%C3%A5', q: 'a%26b%3Dc' },
    headers: { accept: 'application/json', host: 'alb.example.no', 'x-tag': 'two' },
    body: '',
    isBase64Encoded: false,
    ...overrides,
  }
}

/** ALB with multi-value headers enabled on the target group. */
function albMultiEvent(overrides: Partial<ALBEvent> = {}): ALBEvent {
  return {
    requestContext: targetGroup,
    httpMethod: 'GET',
    path: '/api/v1/kilder/a%20b',
    multiValueQueryStringParameters: { area: ['NO1', 'NO2'], navn: ['%C3%A6%C3%B8%C3%A5'], q: ['a%26b%3Dc'] },
    multiValueHeaders: { accept: ['application/json'], host: ['alb.example.no'], 'x-tag': ['one', 'two'] },
    body: '',
    isBase64Encoded: false,
    ...overrides,
  }
}

describe('ALB events', () => {
  it('keeps path and query encoded and answers with headers and a status description', async () => {
    const { gateway, last } = recordingGateway()
    const result = await createLambdaHandler(gateway)(albEvent())
    const { request } = last()
    expect(request.path).toBe('/api/v1/kilder/a%20b')
    expect(request.query).toBe('area=NO2&navn=%C3%A6%C3%B8%C3%A5&q=a%26b%3Dc')
    expect(request.headers['x-tag']).toBe('two')
    expect(request.basePath).toBe('')
    expect(last().body).toBe('')
    expect(result).toEqual({
      statusCode: 200,
      statusDescription: '200 OK',
      headers: expect.objectContaining({ etag: 'W/"abc"', 'content-type': 'application/json; charset=utf-8' }),
      body: JSON_BODY,
      isBase64Encoded: false,
    })
    expect(result.multiValueHeaders).toBeUndefined()
  })

  it('keeps repeated keys and headers and answers with multiValueHeaders when enabled', async () => {
    const { gateway, last } = recordingGateway()
    const result = await createLambdaHandler(gateway)(albMultiEvent())
    const { request } = last()
    expect(request.query).toBe('area=NO1&area=NO2&navn=%C3%A6%C3%B8%C3%A5&q=a%26b%3Dc')
    expect(request.headers['x-tag']).toEqual(['one', 'two'])
    expect(result.headers).toBeUndefined()
    expect(result.multiValueHeaders).toMatchObject({ etag: ['W/"abc"'], 'cache-control': ['public, max-age=60'] })
    expect(result.statusDescription).toBe('200 OK')
  })

  it('strips a listener-rule base path per segment', async () => {
    const { gateway, last } = recordingGateway()
    const handler = createLambdaHandler(gateway, { basePath: '/data' })
    await handler(albEvent({ path: '/data/api/v1/kilder' }))
    expect(last().request.path).toBe('/api/v1/kilder')
    expect(last().request.basePath).toBe('/data')
    const foreign = await handler(albEvent({ path: '/database/api' }))
    expect(last().request.path).toBe('/database/api')
    expect(foreign.statusCode).toBe(404)
    expect(foreign.statusDescription).toBe('404 Not Found')
  })

  it('answers 304 with an empty body and the ETag kept', async () => {
    const { gateway } = recordingGateway()
    const result = await createLambdaHandler(gateway)(
      albMultiEvent({ multiValueHeaders: { 'if-none-match': ['W/"abc"'] } }),
    )
    expect(result.statusCode).toBe(304)
    expect(result.statusDescription).toBe('304 Not Modified')
    expect(result.body).toBe('')
    expect(result.multiValueHeaders?.['etag']).toEqual(['W/"abc"'])
  })
})
