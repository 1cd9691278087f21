import type { Catalog } from '../compile/catalog.js'
import type { Links } from '../http/links.js'
import { compileRoute, routeUrlTemplate, type RouteDefinition } from '../routing/define-route.js'
import { buildMeta } from '../pipeline/meta.js'
import { placeSections } from '../compile/place-sections.js'

export const apiVersion = '1.0.0'

/**
 * The API index (`GET /api/v1/`): the version, a link to every endpoint, the sections and
 * fields of the place bundle this gateway's sources fill, and the sources with their operations.
 */
export function apiIndex(catalog: Catalog, links: Links, routes: readonly RouteDefinition[], documentation: string) {
  const endpoints = Object.fromEntries(
    routes.map(compileRoute).map((route) => {
      const method = route.methods.includes('POST') ? 'POST' : 'GET'
      const url = routeUrlTemplate(links, route)
      return [route.definition.name, url.includes('{') ? { method, url_template: url } : { method, url }]
    }),
  )
  return {
    name: 'Allmenning public-data gateway',
    api_version: apiVersion,
    description:
      'Read-only JSON gateway in front of Norwegian public data sources. Every response carries the same envelope.',
    endpoints,
    places: {
      sections: placeSections(catalog.places),
      fields: [...catalog.places.values()].map(({ field, source, operationName }) => ({
        name: field.name,
        section: field.section,
        description: field.description,
        summary: field.summary === true,
        source: source.id,
        operation: operationName,
      })),
    },
    sources: catalog.sources.map((source) => ({
      id: source.id,
      name: source.definition.name,
      description: source.definition.description,
      topic: source.definition.topic,
      operations: source.outline.map((operation) => operation.name),
      _links: { self: links.source(source.id), wiki: source.definition.documentation },
    })),
    _meta: buildMeta(catalog.sources.map((s) => s.definition)),
    _links: {
      self: links.index(),
      openapi: links.to('openapi'),
      search: links.to('search'),
      feedback: links.to('feedback'),
      wiki: documentation,
    },
  }
}
