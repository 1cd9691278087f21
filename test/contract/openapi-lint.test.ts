import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createGateway, type GatewayOptions } from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'
import { swaggerUiExplorer } from '@allmenning/explorer'
import { mcpServers } from '@allmenning/mcp'
import { offlineEnvironment } from '../support/offline-environment.js'
import { redoclyProblems, spectralProblems, type LintProblem } from '../support/openapi-linters.js'

/** The OpenAPI document of a gateway set up as the example server is: every built-in source, the explorer and MCP. */
async function exampleDocument(options: Partial<GatewayOptions> = {}) {
  const gateway = createGateway({
    sources: builtInSources(offlineEnvironment()),
    explorer: swaggerUiExplorer(),
    extensions: [mcpServers()],
    ...options,
  })
  const res = await gateway.handle({ method: 'GET', path: '/api/v1/openapi.json', query: '', headers: {} })
  expect(res.status).toBe(200)
  return JSON.parse(res.body!)
}

const lines = (problems: LintProblem[]) =>
  problems.map((p) => `${p.linter} ${p.severity} ${p.rule} at ${p.path}: ${p.message}`)

describe('the OpenAPI document under Spectral (oas) and Redocly (recommended)', () => {
  for (const [name, options] of [
    ['links relative to the host', {}],
    ['a public base URL', { publicBaseUrl: 'https://data.example.no/wiki' }],
  ] as const) {
    it(`has no error and no warning, with ${name}`, async () => {
      const doc = await exampleDocument(options)
      expect(lines(await spectralProblems(doc))).toEqual([])
      expect(lines(await redoclyProblems(doc))).toEqual([])
    })
  }

  it('each linter finds what is missing in a document stripped of it', async () => {
    const doc = await exampleDocument()
    delete doc.security
    delete doc.info.license
    delete doc.info.contact
    delete doc.paths['/api/v1/sok/alle'].get.operationId
    const spectral = await spectralProblems(doc)
    expect(spectral.map((p) => `${p.rule} ${p.path}`)).toEqual(
      expect.arrayContaining(['info-contact info', 'operation-operationId paths./api/v1/sok/alle.get']),
    )
    const redocly = await redoclyProblems(doc)
    expect(redocly.map((p) => p.rule)).toEqual(
      expect.arrayContaining(['info-license', 'security-defined', 'operation-operationId']),
    )
  })

  it('names the licence the packages are published under, and declares that no operation needs credentials', async () => {
    const doc = await exampleDocument()
    const core = JSON.parse(await readFile(new URL('../../packages/core/package.json', import.meta.url), 'utf8'))
    expect(doc.info.license).toEqual({ name: core.license, identifier: core.license })
    expect(doc.security).toEqual([])
  })

  it('lists the API index without its trailing slash, an address the gateway answers as it answers /api/v1/', async () => {
    const doc = await exampleDocument()
    expect(Object.keys(doc.paths).filter((p) => p.endsWith('/'))).toEqual([])
    expect(doc.paths['/api/v1'].get.operationId).toBe('api_index')
    const gateway = createGateway({ sources: builtInSources(offlineEnvironment()) })
    const index = (path: string) => gateway.handle({ method: 'GET', path, query: '', headers: {} })
    const [bare, slashed] = [await index('/api/v1'), await index('/api/v1/')]
    expect(bare.status).toBe(200)
    expect(bare.body).toBe(slashed.body)
    expect(JSON.parse(bare.body!)._links.self).toBe('/api/v1/')
  })

  it('tags every operation with a tag the document lists and describes', async () => {
    const doc = await exampleDocument()
    const listed = new Map<string, string>(
      doc.tags.map((t: { name: string; description: string }) => [t.name, t.description]),
    )
    expect([...listed.keys()].slice(0, 4)).toEqual(['Discovery', 'Search', 'Places', 'Feedback'])
    for (const item of Object.values(doc.paths) as Record<string, { tags: string[] }>[]) {
      for (const operation of Object.values(item)) {
        expect(operation.tags).toHaveLength(1)
        expect(listed.get(operation.tags[0]!)).toMatch(/\w/)
      }
    }
  })
})
