import { describe, expect, it } from 'vitest'
import { createTestGateway } from '../testing/test-gateway.js'
import { validateOpenApi } from '../testing/openapi-validation.js'
import { defineSource } from '../plugin/define-source.js'
import { defineUpstream } from '../plugin/define-upstream.js'
import type { Explorer } from './explorer.js'

const upstream = defineUpstream({ id: 'none', name: 'Nothing', baseUrl: 'http://127.0.0.1:9', publisher: 'Nobody' })
const source = defineSource({
  id: 'empty',
  name: 'Empty',
  description: 'No operations.',
  documentation: 'https://example.no/',
  topic: 'test',
  keywords: [],
  contentLanguages: ['en'],
  cacheTtlSeconds: 60,
  upstreams: [upstream],
  operations: [],
})

// A renderer in a few lines: what any explorer hands the gateway.
const plain: Explorer = {
  name: 'Plain 1.0',
  assets: {
    'app.js': { contentType: 'text/javascript; charset=utf-8', body: 'document.title = document.body.dataset.openapi' },
  },
  page: ({ title, openapi, asset }) =>
    `<!doctype html><title>${title}</title><body data-openapi="${openapi}"><script src="${asset('app.js')}"></script></body>`,
}

describe('the API explorer route', () => {
  it('serves the page with the policy and the assets, under the mount path, with ETags that answer 304', async () => {
    const gateway = createTestGateway({ sources: source, explorer: plain })
    const page = await gateway.handle({
      method: 'GET',
      path: '/api/v1/docs',
      query: '',
      headers: {},
      basePath: '/data',
    })
    expect(page.status).toBe(200)
    expect(page.body).toBe(
      '<!doctype html><title>Allmenning API explorer</title><body data-openapi="/data/api/v1/openapi.json"><script src="/data/api/v1/docs?asset=app.js"></script></body>',
    )
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'content-length': String(page.body!.length),
    })
    expect(page.headers['content-security-policy']).toContain("script-src 'self'; style-src 'self'")
    const again = await gateway.handle({
      method: 'GET',
      path: '/api/v1/docs',
      query: '',
      headers: { 'if-none-match': page.headers.etag },
      basePath: '/data',
    })
    expect(again.status).toBe(304)
    const script = await gateway.get('/api/v1/docs', { asset: 'app.js' })
    expect(script).toMatchObject({
      status: 200,
      body: plain.assets['app.js']!.body,
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
    })
    const head = await gateway.handle({ method: 'HEAD', path: '/api/v1/docs', query: 'asset=app.js', headers: {} })
    expect(head).toMatchObject({
      status: 200,
      body: null,
      headers: { 'content-length': String(plain.assets['app.js']!.body.length) },
    })
    const unknown = await gateway.get('/api/v1/docs', { asset: '../package.json' })
    expect(unknown.status).toBe(400)
    expect(unknown.json.error.details[0]).toMatchObject({
      parameter: 'asset',
      rule: 'enum',
      problem: 'must be one of: app.js',
    })
  })

  it('lets the page call the public base URL, lists itself in the index, stays out of OpenAPI, and is the default wiki link', async () => {
    const gateway = createTestGateway({
      sources: source,
      explorer: plain,
      publicBaseUrl: 'https://data.example.no/gateway',
    })
    const page = await gateway.get('/api/v1/docs')
    expect(page.headers['content-security-policy']).toContain("connect-src 'self' https://data.example.no;")
    expect(page.body).toContain('data-openapi="https://data.example.no/gateway/api/v1/openapi.json"')
    const index = await gateway.get('/api/v1/')
    expect(index.json.endpoints.explorer).toEqual({
      method: 'GET',
      url_template: 'https://data.example.no/gateway/api/v1/docs{?asset}',
    })
    expect(index.json._links.wiki).toBe('https://data.example.no/gateway/api/v1/docs')
    const openapi = await gateway.get('/api/v1/openapi.json')
    expect(Object.keys(openapi.json.paths)).not.toContain('/api/v1/docs')
    expect((await validateOpenApi(openapi.json)).errors).toEqual([])
  })

  it('is not there without an explorer, and the wiki link stays the OpenAPI document', async () => {
    const gateway = createTestGateway({ sources: source })
    const page = await gateway.get('/api/v1/docs')
    expect(page.status).toBe(404)
    expect(page.json.error.code).toBe('route_not_found')
    expect((await gateway.get('/api/v1/')).json._links.wiki).toBe('/api/v1/openapi.json')
  })

  it('refuses asset names that could not be a query value, and a page that loads what it does not have', async () => {
    expect(() =>
      createTestGateway({ sources: source, explorer: { ...plain, assets: { 'a b.js': plain.assets['app.js']! } } }),
    ).toThrow('Explorer asset name "a b.js" must be letters, digits, ".", "-" or "_"')
    const broken = createTestGateway({
      sources: source,
      explorer: { ...plain, page: ({ asset }) => asset('missing.js') },
    })
    expect((await broken.get('/api/v1/docs')).status).toBe(500)
    expect(String(broken.errors[0]?.error)).toContain(
      'The explorer page loads "missing.js", which is not one of its assets',
    )
  })
})
