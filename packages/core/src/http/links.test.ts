import { describe, expect, it } from 'vitest'
import { createLinkFactory } from './links.js'

const routes = [
  { name: 'api_index', path: '/' },
  { name: 'sources', path: '/kilder' },
  { name: 'source', path: '/kilder/{source}' },
  { name: 'operation', path: '/kilder/{source}/{operation}' },
  { name: 'operation_schema', path: '/kilder/{source}/{operation}/schema' },
  { name: 'place', path: '/steder/{lat}/{lon}' },
  { name: 'mcp', path: '/mcp', root: 'mount' as const },
  { name: 'source_mcp', path: '/{source}/mcp', root: 'mount' as const },
]

describe('links made from the route table', () => {
  const linksFor = createLinkFactory(routes)

  it('fill each route path, under the public base URL or the mount path', () => {
    const links = linksFor('https://data.example.no/', '/ignored')
    expect(links.apiRoot).toBe('https://data.example.no/api/v1')
    expect(links.mount).toBe('https://data.example.no')
    expect(links.index()).toBe('https://data.example.no/api/v1/')
    expect(links.operation('statnett', 'get_physical_flow', { area: 'NO1', detailed: true, offset: null })).toBe(
      'https://data.example.no/api/v1/kilder/statnett/get_physical_flow?area=NO1&detailed=yes',
    )
    expect(linksFor(undefined, '/data').to('place', { lat: 59.91, lon: -10.5 }, { section: 'all' })).toBe(
      '/data/api/v1/steder/59.91/-10.5?section=all',
    )
    expect(linksFor(undefined, '/data').extension('mcp', 'statnett')).toBe('/data/statnett/mcp')
    expect(linksFor(undefined, '').extension('mcp')).toBe('/mcp')
  })

  it('encode a value inside its segment, and keep a template placeholder as it is', () => {
    const links = linksFor(undefined, '')
    expect(links.source('a/b c')).toBe('/api/v1/kilder/a%2Fb%20c')
    expect(links.operationSchema('statnett', '{operation}')).toBe('/api/v1/kilder/statnett/{operation}/schema')
    expect(links.operationTemplate('statnett', 'get_physical_flow', ['area', 'limit'])).toBe(
      '/api/v1/kilder/statnett/get_physical_flow{?area,limit}',
    )
  })

  it('refuse a route the table does not have, or a path parameter left out', () => {
    const links = linksFor(undefined, '')
    expect(() => links.to('feedback')).toThrow(/feedback/)
    expect(() => links.to('source')).toThrow(/needs source/)
  })

  it('are made once per base', () => {
    expect(linksFor(undefined, '/data')).toBe(linksFor(undefined, '/data'))
    expect(linksFor(undefined, '/data')).not.toBe(linksFor(undefined, '/other'))
  })
})
