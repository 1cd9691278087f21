import type { Catalog } from '../compile/catalog.js'
import type { CompiledOperation, CompiledSource } from '../compile/compile-source.js'
import type { Links } from '../http/links.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'
import { buildMeta } from '../pipeline/meta.js'
import { missingSettings } from '../plugin/missing-settings.js'

/** How long descriptors (and the index and OpenAPI) may be cached: they change only with the configuration. */
export const descriptorMaxAge = 300

/** How much of a source descriptor to show (`view` query parameter). */
export type DescriptorView = 'names' | 'compact' | 'full'

/** Fields beyond this many are cut from embedded descriptors; `/schema` always lists all. */
export const maxEmbeddedOutputFields = 40

export function getUrlTemplate(links: Links, sourceId: string, operation: CompiledOperation): string {
  return links.operationTemplate(
    sourceId,
    operation.name,
    operation.parameters.map((p) => p.name),
  )
}

export function operationDescriptorUrl(links: Links, sourceId: string, name: string): string {
  return links.operationSchema(sourceId, name)
}

/** An operation's description, with the note on where its shape comes from when it has one. */
export function operationDescription(operation: CompiledOperation): string {
  const { description, shapeNote } = operation.definition
  return shapeNote ? `${description} ${shapeNote}` : description
}

/** What an operation descriptor says of an operation the deployment has not configured: nothing when it is. */
const configuredFields = (configure: string[] | undefined) => (configure ? { configured: false, configure } : {})

function operationSummary(
  links: Links,
  sourceId: string,
  operation: CompiledOperation,
  view: Exclude<DescriptorView, 'names'>,
  configure: string[] | undefined,
) {
  const base = {
    name: operation.name,
    operation_descriptor_url: operationDescriptorUrl(links, sourceId, operation.name),
    ...configuredFields(configure),
  }
  const compact = {
    ...base,
    description: `${operationDescription(operation)} Signature: ${operation.signature}`,
    signature: operation.signature,
    canonical_field_aliases: operation.canonicalFieldAliases,
  }
  if (view === 'compact') return compact
  return {
    ...compact,
    required_parameters: operation.parameters.filter((p) => p.required).map((p) => p.name),
    optional_parameters: operation.parameters.filter((p) => !p.required).map((p) => p.name),
    output_fields: operation.outputFields.slice(0, maxEmbeddedOutputFields),
    output_fields_truncated: operation.outputFields.length > maxEmbeddedOutputFields,
    get_url_template: getUrlTemplate(links, sourceId, operation),
  }
}

export function sourceLinks(links: Links, source: CompiledSource) {
  const self = links.source(source.id)
  return {
    self,
    names: `${self}?view=names`,
    compact: `${self}?view=compact`,
    full: self,
    wiki: source.definition.documentation,
    feedback: links.to('feedback'),
    api: links.index(),
  }
}

/**
 * A source descriptor (spec 2.5). `names` lists operation names and their schema URLs;
 * `compact` adds descriptions, signatures and aliases; `full` (the default) adds topic,
 * keywords, related sources and each operation's parameters, output fields and URL template.
 *
 * @example
 * sourceDescriptor(catalog, catalog.source('statnett'), links, 'compact')
 */
export function sourceDescriptor(catalog: Catalog, source: CompiledSource, links: Links, view: DescriptorView) {
  const definition = source.definition
  const missing = missingSettings(
    definition,
    source.outline.map(({ name }) => name),
  )
  // Names come from the outline: listing sources loads and compiles none (see deferOperations).
  const operations =
    view === 'names'
      ? source.outline.map(({ name }) => ({
          name,
          operation_descriptor_url: operationDescriptorUrl(links, source.id, name),
          ...configuredFields(missing.get(name)),
        }))
      : [...source.operations.values()].map((op) => operationSummary(links, source.id, op, view, missing.get(op.name)))
  const head = {
    id: source.id,
    name: definition.name,
    ...(missing.size > 0 ? { configuration: missing.size < source.outline.length ? 'partial' : 'missing' } : {}),
  }
  const tail = { _meta: buildMeta([definition]), _links: sourceLinks(links, source) }
  if (view === 'names') return { ...head, operations, ...tail }
  const compact = {
    ...head,
    description: definition.description,
    documentation: definition.documentation,
    operations,
    operation_schema_url_template: links.operationSchema(source.id, '{operation}'),
  }
  if (view === 'compact') return { ...compact, ...tail }
  const related = (definition.relatedSources ?? [])
    .filter((r) => catalog.has(r.id))
    .map((r) => {
      const other = catalog.source(r.id)
      return {
        id: r.id,
        name: other.definition.name,
        reason: r.reason,
        api: links.source(r.id),
        wiki: other.definition.documentation,
      }
    })
  return {
    ...compact,
    topic: definition.topic,
    keywords: definition.keywords,
    related_sources: related,
    ...(definition.datasets?.length
      ? { datasets: definition.datasets.map((dataset) => datasetSummary(dataset, catalog.loadCommand(dataset))) }
      : {}),
    ...tail,
  }
}

/**
 * A bulk dataset the source answers from: what it is, whose, how often it changes and the
 * command that loads it, when the gateway's dataset store names one. Whether this deployment has loaded it, and which version, is told
 * by each answer's `_meta.datasets` (or a 502 `dataset_not_loaded`), not here: descriptors
 * describe the configuration and are cached as such.
 */
function datasetSummary(dataset: DatasetDefinition, loadCommand: string | undefined) {
  return {
    id: dataset.id,
    title: dataset.title,
    publisher: dataset.publisher,
    license: dataset.license,
    changes: dataset.changes,
    origin:
      dataset.origin.kind === 'order'
        ? 'ordered from the publisher; imported from a local file'
        : dataset.origin.kind === 'derived'
          ? `made from ${dataset.origin.from.join(', ')} by asking ${dataset.origin.upstreams.map((u) => u.name).join(', ')}`
          : 'downloaded',
    page: dataset.origin.page,
    ...(loadCommand === undefined ? {} : { load_command: loadCommand }),
  }
}

/**
 * The `/schema` resource of one operation: every parameter with type, default, bounds and
 * allowed values, the full list of output fields and the JSON Schema of `data`; and the
 * place field it fills, when it fills one.
 */
export function operationSchema(source: CompiledSource, operation: CompiledOperation, links: Links) {
  const { placeField } = operation.definition
  return {
    source: source.id,
    operation: operation.name,
    ...configuredFields(missingSettings(source.definition, [operation.name]).get(operation.name)),
    description: operationDescription(operation),
    signature: operation.signature,
    method: 'GET',
    get_url_template: getUrlTemplate(links, source.id, operation),
    parameters: operation.parameters.map((p) => ({
      name: p.name,
      in: 'query',
      type: p.type,
      required: p.required,
      ...(p.default !== undefined ? { default: p.default } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
      schema: p.jsonSchema,
    })),
    required_parameters: operation.parameters.filter((p) => p.required).map((p) => p.name),
    optional_parameters: operation.parameters.filter((p) => !p.required).map((p) => p.name),
    output_fields: operation.outputFields,
    output_schema: operation.outputSchema,
    canonical_field_aliases: operation.canonicalFieldAliases,
    cache_ttl_seconds: operation.cacheTtlSeconds,
    ...(placeField
      ? {
          place_field: {
            name: placeField.name,
            section: placeField.section,
            description: placeField.description,
            summary: placeField.summary === true,
          },
        }
      : {}),
    _meta: buildMeta([source.definition]),
    _links: {
      self: operationDescriptorUrl(links, source.id, operation.name),
      source: links.source(source.id),
      wiki: source.definition.documentation,
      openapi: links.to('openapi'),
    },
  }
}
