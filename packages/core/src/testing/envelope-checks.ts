import type { TestResponse } from './test-gateway.js'

/** How an operation pages, as its descriptor and definition say. */
export type ExpectedPaging = { kind: 'data' } | { kind: 'field'; field: string } | { kind: 'none' }

/** What an operation's success envelope must hold. */
export interface EnvelopeExpectation {
  source: string
  operation: string
  /** The gateway's link root: `http://gateway.test/api/v1`. */
  root: string
  paging: ExpectedPaging
  /** Parameters the operation takes (limit and offset included when it pages). */
  parameterNames: string[]
  /** Parameters with a default, which the echo must carry. */
  defaults: string[]
  entityTypes: Record<string, { operation: string }>
  upstreamIds: string[]
  cacheTtlSeconds: number
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0
const isUtcTimestamp = (value: unknown) =>
  typeof value === 'string' &&
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value) &&
  !Number.isNaN(Date.parse(value))
const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 120 ? `${text.slice(0, 120)}…` : text
}

const isScalar = (value: unknown) =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
/** A parameter's value as the echo may carry it: a scalar, or a list of them. */
const isEchoable = (value: unknown) => isScalar(value) || (Array.isArray(value) && value.every(isScalar))

function isUri(value: unknown): boolean {
  if (typeof value !== 'string') return false
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}

// A Node stack frame ("at f (/app/dist/x.js:12:5)") in a body means a stack trace leaked.
const stackFrame = /\bat [^\n]*?[^\s()]+\.(?:[cm]?js|[cm]?ts|tsx):\d+:\d+/

/** What is wrong with `_meta` (spec 2.2), or nothing. */
function metaProblems(meta: unknown, source: string): string[] {
  if (!isObject(meta)) return [`_meta is ${shown(meta)}, not an object`]
  const problems: string[] = []
  if (!isUtcTimestamp(meta.retrieved_at))
    problems.push(`_meta.retrieved_at is ${shown(meta.retrieved_at)}, not an ISO 8601 UTC timestamp`)
  if (meta.language !== 'en') problems.push(`_meta.language is ${shown(meta.language)}, not "en"`)
  if (!Array.isArray(meta.content_languages) || !meta.content_languages.every(isText))
    problems.push('_meta.content_languages is not a list of language codes')
  const sources = meta.sources
  if (!Array.isArray(sources) || !sources.some((s) => isObject(s) && s.id === source)) {
    problems.push(`_meta.sources does not list ${source}`)
  } else {
    for (const summary of sources as Json[]) {
      for (const field of ['id', 'name', 'description'])
        if (!isText(summary[field])) problems.push(`_meta.sources[].${field} is missing`)
      if (!isUri(summary.documentation))
        problems.push(`_meta.sources[].documentation is ${shown(summary.documentation)}, not a URI`)
      if (!Number.isInteger(summary.cache_ttl_seconds))
        problems.push('_meta.sources[].cache_ttl_seconds is not an integer')
    }
  }
  return problems
}

function paginationProblems(json: Json, expected: EnvelopeExpectation): string[] {
  const pagination = isObject(json._meta) ? json._meta.pagination : undefined
  const data = json.data
  const { paging } = expected
  if (paging.kind === 'none') {
    return pagination === undefined ? [] : ['_meta.pagination is there although data is not a list']
  }
  if (!isObject(pagination)) return [`data is a list, but _meta.pagination is ${shown(pagination)}`]
  const problems: string[] = []
  for (const field of ['limit', 'offset', 'returned']) {
    if (!Number.isInteger(pagination[field]) || (pagination[field] as number) < 0)
      problems.push(`_meta.pagination.${field} is ${shown(pagination[field])}`)
  }
  if (typeof pagination.has_more_results !== 'boolean')
    problems.push(`_meta.pagination.has_more_results is ${shown(pagination.has_more_results)}, not a boolean`)
  const params = isObject(json.parameters) ? json.parameters : {}
  if (pagination.limit !== params.limit)
    problems.push(
      `_meta.pagination.limit ${shown(pagination.limit)} differs from parameters.limit ${shown(params.limit)}`,
    )
  if (pagination.offset !== params.offset)
    problems.push(
      `_meta.pagination.offset ${shown(pagination.offset)} differs from parameters.offset ${shown(params.offset)}`,
    )
  const list = paging.kind === 'data' ? data : isObject(data) ? data[paging.field] : undefined
  if (!Array.isArray(list)) {
    problems.push(paging.kind === 'data' ? `data is ${shown(data)}, not a list` : `data.${paging.field} is not a list`)
    return problems
  }
  if (pagination.returned !== list.length)
    problems.push(`_meta.pagination.returned is ${shown(pagination.returned)} but the list holds ${list.length}`)
  if (typeof pagination.limit === 'number' && list.length > pagination.limit)
    problems.push(`the list holds ${list.length} items, more than limit ${pagination.limit}`)
  if (paging.kind === 'field' && isObject(data) && data.has_more_results !== pagination.has_more_results) {
    problems.push(
      `data.has_more_results ${shown(data.has_more_results)} differs from _meta.pagination.has_more_results`,
    )
  }
  return problems
}

function entityProblems(entities: unknown, expected: EnvelopeExpectation): string[] {
  if (!Array.isArray(entities)) return [`entities is ${shown(entities)}, not a list`]
  const problems: string[] = []
  for (const entity of entities) {
    if (!isObject(entity) || !isText(entity.type) || !isText(entity.id)) {
      problems.push(`entity ${shown(entity)} lacks a type or an id`)
      continue
    }
    const link = expected.entityTypes[entity.type]
    if (!link) {
      problems.push(`entity type ${entity.type} is not declared in entityTypes`)
      continue
    }
    if (entity.source !== expected.source)
      problems.push(`entity ${entity.type} ${entity.id} names source ${shown(entity.source)}`)
    const self = isObject(entity._links) ? entity._links.self : undefined
    const target = `${expected.root}/kilder/${expected.source}/${link.operation}`
    if (typeof self !== 'string' || !(self === target || self.startsWith(`${target}?`))) {
      problems.push(`entity ${entity.type} ${entity.id} links to ${shown(self)}, not to ${link.operation}`)
    }
  }
  return problems
}

function provenanceProblems(provenance: unknown, expected: EnvelopeExpectation): string[] {
  if (!isObject(provenance)) return [`_provenance is ${shown(provenance)}, not an object`]
  const problems: string[] = []
  for (const key of ['data', 'entities']) {
    const item = provenance[key]
    if (!isObject(item) || !isText(item.source) || !isUri(item.source_api))
      problems.push(`_provenance.${key} needs source and a source_api URI (got ${shown(item)})`)
  }
  const upstreams = provenance.upstreams
  // An answer read from datasets names them instead, and upstreams only where it also called one.
  const datasets = provenance.datasets
  if (datasets !== undefined) {
    if (!Array.isArray(datasets) || datasets.length === 0)
      problems.push('_provenance.datasets is there but lists no dataset')
    else
      for (const used of datasets)
        if (!isObject(used) || !isText(used.id) || !isText(used.license) || !isUri(used.source_api))
          problems.push(`_provenance.datasets needs id, license and a source_api URI (got ${shown(used)})`)
  }
  if (!Array.isArray(upstreams) || (upstreams.length === 0 && datasets === undefined)) {
    problems.push('_provenance.upstreams lists no upstream')
  } else {
    for (const used of upstreams) {
      if (!isObject(used) || !expected.upstreamIds.includes(used.id as string))
        problems.push(
          `_provenance.upstreams names ${shown(isObject(used) ? used.id : used)}, not an upstream of the source`,
        )
    }
  }
  return problems
}

/**
 * What is wrong with one success answer of an operation, measured against spec 2.1–2.3 and
 * the paging contract (design.md): an empty list when it is right.
 */
export function envelopeProblems(res: TestResponse, expected: EnvelopeExpectation): string[] {
  const json: unknown = res.json
  if (!isObject(json)) return [`the body is not a JSON object (${shown(res.body)})`]
  const problems: string[] = []
  if (json.source !== expected.source) problems.push(`source is ${shown(json.source)}`)
  if (json.operation !== expected.operation) problems.push(`operation is ${shown(json.operation)}`)
  if (!('data' in json)) problems.push('data is missing')
  if (!isObject(json.parameters)) {
    problems.push(`parameters is ${shown(json.parameters)}, not an object`)
  } else {
    const extra = Object.keys(json.parameters).filter((name) => !expected.parameterNames.includes(name))
    if (extra.length > 0) problems.push(`parameters echoes ${extra.join(', ')}, which the operation does not declare`)
    const missing = expected.defaults.filter((name) => !(name in (json.parameters as Json)))
    if (missing.length > 0) problems.push(`parameters lacks the defaults of ${missing.join(', ')}`)
    for (const [name, value] of Object.entries(json.parameters)) {
      if (!isEchoable(value)) {
        problems.push(
          `parameters echoes ${name} as ${shown(value)}: a parameter's schema must turn what the caller sent into a string, number, boolean or a list of them, ` +
            'which the echo, links and the cache key carry as they are (keep a parsed form inside run)',
        )
      }
    }
  }
  // What String() makes of an object, written where text belongs: a link or a message built from one.
  const body = res.body ?? ''
  const stray = body.indexOf('[object Object]')
  if (stray >= 0) problems.push(`the body holds "[object Object]" (${shown(body.slice(Math.max(0, stray - 60)))})`)
  problems.push(...entityProblems(json.entities, expected))
  problems.push(...metaProblems(json._meta, expected.source))
  problems.push(...paginationProblems(json, expected))
  problems.push(...provenanceProblems(json._provenance, expected))
  const links = json._links
  if (!isObject(links) || !isUri(links.self) || !isUri(links.source) || !isUri(links.wiki)) {
    problems.push(`_links needs the URIs self, source and wiki (got ${shown(links)})`)
  } else if (!String(links.self).startsWith(`${expected.root}/kilder/${expected.source}/${expected.operation}`)) {
    problems.push(`_links.self is ${shown(links.self)}`)
  }
  if ('_raw_values' in json && !isObject(json._raw_values)) problems.push('_raw_values is not an object')
  const cacheControl = res.headers['cache-control'] ?? ''
  if (!cacheControl.includes(`max-age=${expected.cacheTtlSeconds}`))
    problems.push(`Cache-Control is ${shown(cacheControl)}, not max-age=${expected.cacheTtlSeconds}`)
  if (!res.headers.etag) problems.push('there is no ETag')
  return problems
}

/** What is wrong with an error answer, measured against the one error body every status shares. */
export function errorBodyProblems(res: TestResponse, status: number): string[] {
  const problems: string[] = []
  if (res.status !== status) problems.push(`status ${res.status}, expected ${status}`)
  if (res.body !== null && stackFrame.test(res.body)) problems.push('the body holds a stack trace')
  const json: unknown = res.json
  if (!isObject(json) || !isObject(json.error))
    return [...problems, `the body is not the shared error body (${shown(res.body)})`]
  const error = json.error
  if (error.status !== status) problems.push(`error.status is ${shown(error.status)}`)
  if (!isText(error.code)) problems.push('error.code is missing')
  if (!isText(error.message)) problems.push('error.message is missing')
  if (!Array.isArray(error.details)) {
    problems.push('error.details is not a list')
  } else {
    for (const detail of error.details) {
      if (!isObject(detail) || !isText(detail.parameter) || !isText(detail.problem) || !isText(detail.rule))
        problems.push(`error.details holds ${shown(detail)}, not {parameter, problem, rule}`)
    }
  }
  if (!isObject(json._meta) || !isUtcTimestamp(json._meta.retrieved_at)) problems.push('_meta.retrieved_at is missing')
  if (!isObject(json._links) || !isText(json._links.api_index)) problems.push('_links.api_index is missing')
  if (res.headers['cache-control'] !== 'no-store')
    problems.push(`Cache-Control is ${shown(res.headers['cache-control'])}, not no-store`)
  return problems
}
