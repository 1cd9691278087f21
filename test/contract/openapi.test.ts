import { outlineOf } from '@allmenning/core/source'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { createGateway } from '@allmenning/core'
import { builtInSources, statnett } from '@allmenning/sources'

const gateway = createGateway({ sources: [statnett()], publicBaseUrl: 'https://data.example.no' })

async function document() {
  const res = await gateway.handle({ method: 'GET', path: '/api/v1/openapi.json', query: '', headers: {} })
  expect(res.status).toBe(200)
  return JSON.parse(res.body!)
}

describe('/api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document for API version 1.0.0', async () => {
    const doc = await document()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('1.0.0')
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('stays valid with every built-in source, and lists each of their operations', async () => {
    const all = createGateway({ sources: builtInSources() })
    const res = await all.handle({ method: 'GET', path: '/api/v1/openapi.json', query: '', headers: {} })
    const doc = JSON.parse(res.body!)
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    const operations = Object.keys(doc.paths).filter((p) => /^\/api\/v1\/kilder\/[a-z_]+\/[a-z_]+$/.test(p))
    // One path per operation of every built-in source, in the order the sources define them.
    const expected = builtInSources().flatMap((source) =>
      outlineOf(source.operations).map((operation) => `/api/v1/kilder/${source.id}/${operation.name}`),
    )
    expect(expected.length).toBeGreaterThanOrEqual(13)
    expect(operations).toEqual(expected)
  })

  it('has one path per operation, generated from its definition', async () => {
    const doc = await document()
    expect(doc.servers).toEqual([{ url: 'https://data.example.no' }])
    const get = doc.paths['/api/v1/kilder/statnett/get_power_situation'].get
    expect(get.operationId).toBe('statnett__get_power_situation')
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(['area', 'limit', 'offset'])
    expect(get.parameters[0].schema.enum).toEqual(['NO1', 'NO2', 'NO3', 'NO4', 'NO5'])
    const envelope = get.responses['200'].content['application/json'].schema
    expect(envelope.properties.data.items.required).toEqual(['area', 'status', 'description', 'description_no'])
    expect(envelope.properties.parameters.additionalProperties).toBe(false)
    expect(Object.keys(get.responses)).toEqual(['200', '304', '400', '404', '429', '500', '502'])
  })

  it('a document that breaks the OpenAPI schema is caught by the same check', async () => {
    const doc = await document()
    delete doc.info
    expect((await new Validator().validate(doc)).valid).toBe(false)
  })
})
