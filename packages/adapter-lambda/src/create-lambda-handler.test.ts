import { request as httpRequest } from 'node:http'
import type { ALBEvent, APIGatewayProxyEvent, APIGatewayProxyEventV2 } from 'aws-lambda'
import { afterEach, describe, expect, it } from 'vitest'
import {
  startLambdaEventServer,
  type LambdaEventServer,
  type LambdaEventServerOptions,
} from '../../../test/support/lambda-event-server.js'
import { createLambdaHandler } from './index.js'
import { JSON_BODY, JSON_LENGTH, recordingGateway } from '../../../test/support/recording-gateway.js'

const servers: LambdaEventServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

async function start(options: LambdaEventServerOptions, basePath?: string) {
  const recorder = recordingGateway()
  const server = await startLambdaEventServer(createLambdaHandler(recorder.gateway, { basePath }), options)
  servers.push(server)
  return { ...recorder, server }
}

function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer } = {},
): Promise<{
  status: number
  statusMessage: string
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      )
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

const QUERY = 'area=NO1&area=NO2&q=a%26b%3Dc&navn=%C3%A6%C3%B8%C3%A5&plus=a+b'

interface Setup {
  name: string
  options: LambdaEventServerOptions
  basePath?: string
  /** What the client's URL puts before /api, which links must repeat. */
  prefix: string
  /** How a repeated X-Tag header reaches the core through this front end. */
  tag: string | string[]
}

const setups: Setup[] = [
  { name: 'REST v1, stage prod', options: { flavour: 'v1' }, prefix: '/prod', tag: ['one', 'two'] },
  {
    name: 'REST v1, custom domain /gw',
    options: { flavour: 'v1', basePath: '/gw' },
    basePath: '/gw',
    prefix: '/gw',
    tag: ['one', 'two'],
  },
  { name: 'HTTP API v2, $default', options: { flavour: 'v2' }, prefix: '', tag: 'one,two' },
  { name: 'HTTP API v2, stage prod', options: { flavour: 'v2', stage: 'prod' }, prefix: '/prod', tag: 'one,two' },
  {
    name: 'HTTP API v2, custom domain /gw',
    options: { flavour: 'v2', stage: 'prod', basePath: '/gw' },
    basePath: '/gw',
    prefix: '/gw',
    tag: 'one,two',
  },
  { name: 'ALB', options: { flavour: 'alb' }, prefix: '', tag: 'two' },
  { name: 'ALB multi-value', options: { flavour: 'alb-multi' }, prefix: '', tag: ['one', 'two'] },
  {
    name: 'ALB multi-value under /data',
    options: { flavour: 'alb-multi', basePath: '/data' },
    basePath: '/data',
    prefix: '/data',
    tag: ['one', 'two'],
  },
]

describe.each(setups)('createLambdaHandler over real HTTP: $name', (setup) => {
  it('hands the core the same request a server would', async () => {
    const { server, last } = await start(setup.options, setup.basePath)
    expect(server.url).toBe(server.origin + setup.prefix)

    const res = await rawRequest(`${server.url}/api/v1/kilder/a%20b?${QUERY}`, {
      headers: { 'X-Tag': ['one', 'two'], Accept: 'application/json' },
    })
    expect(res.status).toBe(200)
    expect(res.body.toString('utf8')).toBe(JSON_BODY)
    expect(res.headers['etag']).toBe('W/"abc"')
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')

    const { request } = last()
    expect(request.method).toBe('GET')
    expect(request.path).toBe('/api/v1/kilder/a%20b')
    expect(request.basePath).toBe(setup.prefix)
    const query = new URLSearchParams(request.query)
    expect(query.getAll('area')).toEqual(setup.options.flavour === 'alb' ? ['NO2'] : ['NO1', 'NO2'])
    expect(query.get('q')).toBe('a&b=c')
    expect(query.get('navn')).toBe('æøå')
    expect(query.get('plus')).toBe('a b')
    expect(request.headers['x-tag']).toEqual(setup.tag)
    expect(request.headers['accept']).toBe('application/json')
  })

  it('keeps Content-Length and ETag on HEAD and sends no body', async () => {
    const { server, last } = await start(setup.options, setup.basePath)
    const res = await rawRequest(`${server.url}/api/v1/kilder`, { method: 'HEAD' })
    expect(last().request.method).toBe('HEAD')
    expect(res.status).toBe(200)
    expect(res.headers['content-length']).toBe(JSON_LENGTH)
    expect(res.headers['etag']).toBe('W/"abc"')
    expect(res.body.length).toBe(0)
  })

  it('answers 304 with the ETag and no body', async () => {
    const { server } = await start(setup.options, setup.basePath)
    const res = await rawRequest(`${server.url}/api/v1/kilder`, { headers: { 'If-None-Match': 'W/"abc"' } })
    expect(res.status).toBe(304)
    expect(res.headers['etag']).toBe('W/"abc"')
    expect(res.headers['cache-control']).toBe('public, max-age=60')
    expect(res.body.length).toBe(0)
  })

  it('hands over text and binary bodies intact', async () => {
    const { server, seen } = await start(setup.options, setup.basePath)
    await rawRequest(`${server.url}/api/v1/sok`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"q":"æøå"}',
    })
    await rawRequest(`${server.url}/api/v1/sok`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: Buffer.from([0, 1, 254, 255]),
    })
    expect(Buffer.from(seen[0]!.body as string).toString('utf8')).toBe('{"q":"æøå"}')
    expect([...Buffer.from(seen[1]!.body as Uint8Array)]).toEqual([0, 1, 254, 255])
  })

  it('passes foreign paths to the gateway, which answers its own 404', async () => {
    const { server, last } = await start(setup.options, setup.basePath)
    const res = await rawRequest(`${server.url}/other`)
    expect(last().request.path).toBe('/other')
    expect(res.status).toBe(404)
    expect(res.body.toString('utf8')).toBe('{"error":{"status":404}}')
  })
})

describe('lambda-event-server builds events the way AWS does', () => {
  it('v1: query decoded, stage only in requestContext.path', async () => {
    const { server } = await start({ flavour: 'v1' })
    await rawRequest(`${server.url}/api/v1/x?${QUERY}`, { headers: { 'X-Tag': ['one', 'two'] } })
    const event = server.events[0] as APIGatewayProxyEvent
    expect(event.path).toBe('/api/v1/x')
    expect(event.requestContext.path).toBe('/prod/api/v1/x')
    expect(event.requestContext.stage).toBe('prod')
    expect(event.multiValueQueryStringParameters).toMatchObject({
      area: ['NO1', 'NO2'],
      q: ['a&b=c'],
      navn: ['æøå'],
      plus: ['a b'],
    })
    expect(event.queryStringParameters).toMatchObject({ area: 'NO2' })
    expect(event.multiValueHeaders['X-Tag']).toEqual(['one', 'two'])
    expect(event.body).toBeNull()
  })

  it('v1: a request without the stage is refused like the execute-api host does', async () => {
    const { server, seen } = await start({ flavour: 'v1' })
    const res = await rawRequest(`${server.origin}/api/v1/x`)
    expect(res.status).toBe(403)
    expect(seen).toHaveLength(0)
  })

  it('v2: rawPath keeps the named stage, values joined with commas, cookies split out', async () => {
    const { server } = await start({ flavour: 'v2', stage: 'prod' })
    await rawRequest(`${server.url}/api/v1/x?${QUERY}`, { headers: { 'X-Tag': ['one', 'two'], Cookie: 'a=1; b=2' } })
    const event = server.events[0] as APIGatewayProxyEventV2
    expect(event.rawPath).toBe('/prod/api/v1/x')
    expect(event.rawQueryString).toBe(QUERY)
    expect(event.queryStringParameters).toMatchObject({ area: 'NO1,NO2', q: 'a&b=c' })
    expect(event.headers['x-tag']).toBe('one,two')
    expect(event.cookies).toEqual(['a=1', 'b=2'])
    expect(event.headers['cookie']).toBeUndefined()
  })

  it('alb: query values left encoded', async () => {
    const { server } = await start({ flavour: 'alb' })
    await rawRequest(`${server.url}/api/v1/x?${QUERY}`)
    const event = server.events[0] as ALBEvent
    expect(event.requestContext.elb.targetGroupArn).toMatch(/^arn:aws:elasticloadbalancing:/)
    expect(event.queryStringParameters).toMatchObject({ area: 'NO2', q: 'a%26b%3Dc', plus: 'a+b' })
    expect(event.multiValueHeaders).toBeUndefined()
  })

  it('alb: status description becomes the status line', async () => {
    const { server } = await start({ flavour: 'alb' })
    const res = await rawRequest(`${server.url}/nowhere`)
    expect(res.status).toBe(404)
    expect(res.statusMessage).toBe('Not Found')
  })
})
