import type { Catalog } from '../compile/catalog.js'
import type { Links } from '../http/links.js'
import { buildMeta } from '../pipeline/meta.js'

export const apiVersion = '1.0.0'

/**
 * The API index (`GET /api/v1/`): the version, a link to every endpoint, and the sources
 * with their operations.
 */
export function apiIndex(catalog: Catalog, links: Links, documentation: string) {
  const root = links.root
  return {
    name: 'Allmenning public-data gateway',
    api_version: apiVersion,
    description: 'Read-only JSON gateway in front of Norwegian public data sources. Every response carries the same envelope.',
    endpoints: {
      api_index: { method: 'GET', url: `${root}/` },
      openapi: { method: 'GET', url: `${root}/openapi.json` },
      search: { method: 'GET', url_template: `${root}/sok/alle{?q,limit,sources,mode}` },
      sources: { method: 'GET', url: `${root}/kilder` },
      source: { method: 'GET', url_template: `${root}/kilder/{source}{?view}` },
      operation: { method: 'GET', url_template: `${root}/kilder/{source}/{operation}{?parameters*}` },
      operation_schema: { method: 'GET', url_template: `${root}/kilder/{source}/{operation}/schema` },
      feedback: { method: 'POST', url: `${root}/feedback` },
    },
    sources: catalog.sources.map((source) => ({
      id: source.id,
      name: source.definition.name,
      description: source.definition.description,
      topic: source.definition.topic,
      operations: [...source.operations.keys()],
      _links: { self: links.api(`/kilder/${source.id}`), wiki: source.definition.documentation },
    })),
    _meta: buildMeta(catalog.sources.map((s) => s.definition)),
    _links: { self: `${root}/`, openapi: `${root}/openapi.json`, search: `${root}/sok/alle`, feedback: `${root}/feedback`, wiki: documentation },
  }
}
