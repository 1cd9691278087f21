import * as v from 'valibot'
import { loadOperations, outlineOf, type OperationDefinition, type SourceDefinition } from '@allmenning/core/source'
import type { DatasetStore } from '@allmenning/core/extension'
import { CheckRecorder, SourceCheckError, type SourceCheckReport } from './check-recorder.js'
import {
  envelopeProblems,
  errorBodyProblems,
  type EnvelopeExpectation,
  type ExpectedPaging,
} from './envelope-checks.js'
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js'
import type { FakeReply } from './fake-reply.js'
import { validateOpenApi } from './openapi-validation.js'
import { createTestGateway, type TestGateway, type TestResponse, type TestUpstream } from './test-gateway.js'
import { upstreamFailurePlays, type UpstreamFailureMode } from './upstream-failures.js'

/** The query parameters of one call that should succeed. */
export type ExampleCall = Record<string, string | number | boolean>

export interface CheckSourceOptions {
  /**
   * Where each upstream of the source is played, by upstream id: a running fake (anything
   * with a `baseUrl`). Every upstream must have one, so the check never reaches a real service.
   */
  upstreams: Record<string, TestUpstream>
  /**
   * Calls that succeed against those fakes, by operation: the query parameters of one call, or
   * of several. An operation without required parameters is called without any when left out.
   */
  examples?: Record<string, ExampleCall | ExampleCall[]>
  /**
   * A text the source's entity search finds something for in its fakes; required when the
   * source declares `entitySearch`, which is then checked through `/api/v1/sok/alle`.
   */
  search?: string
  /** The upstream failures to play; all four by default. */
  failures?: UpstreamFailureMode[]
  /** Time limit given to an upstream that hangs; 300 ms by default. */
  timeoutMs?: number
  /** Where the source's datasets are read, loaded with small files, when it declares any. */
  datasets?: DatasetStore
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

const origin = 'http://gateway.test'
const root = `${origin}/api/v1`

/** What `/schema` says about one parameter, the part the check uses. */
interface SchemaParameter {
  name: string
  type: string
  required: boolean
  default?: unknown
  schema?: { enum?: unknown[]; maximum?: number }
}

/** One operation as the check sees it: its definition and what its `/schema` says. */
interface Subject {
  definition: OperationDefinition
  parameters: SchemaParameter[]
  paging: ExpectedPaging
  examples: ExampleCall[]
}

function describeError(res: TestResponse): string {
  const error = isObject(res.json) && isObject(res.json.error) ? res.json.error : undefined
  return error
    ? `${res.status} ${String(error.code)}: ${String(error.message)}`
    : `${res.status} ${res.body?.slice(0, 200) ?? ''}`
}

function listOf(json: Json, paging: ExpectedPaging): unknown[] | undefined {
  const data = json.data
  if (paging.kind === 'data') return Array.isArray(data) ? data : undefined
  if (paging.kind === 'field' && isObject(data) && Array.isArray(data[paging.field]))
    return data[paging.field] as unknown[]
  return undefined
}

function requestCount(upstreams: Record<string, TestUpstream>): number {
  return Object.values(upstreams).reduce(
    (sum, u) => sum + (Array.isArray((u as Partial<FakeUpstream>).requests) ? (u as FakeUpstream).requests.length : 0),
    0,
  )
}

/** How many upstream calls an answer made, as `_provenance.upstreams` counts them. */
function calledUpstreams(res: TestResponse): number {
  const json = res.json as Json
  const used =
    isObject(json) && isObject(json._provenance) && Array.isArray(json._provenance.upstreams)
      ? (json._provenance.upstreams as Json[])
      : []
  return used.reduce((sum, u) => sum + (typeof u.calls === 'number' ? u.calls : 0), 0)
}

function internalErrors(gateway: TestGateway): string[] {
  return gateway.errors
    .filter((e) => e.kind === 'internal')
    .map((e) => (e.error instanceof Error ? `${e.error.name}: ${e.error.message}` : String(e.error)))
}

const outlineNames = (source: SourceDefinition) => outlineOf(source.operations).map((o) => o.name)

async function checkDescriptor(gateway: TestGateway, source: SourceDefinition, rec: CheckRecorder): Promise<void> {
  const res = await gateway.get(`/api/v1/kilder/${source.id}`)
  const json = res.json as Json
  const problems: string[] = []
  if (res.status !== 200 || !isObject(json)) {
    rec.check('the source descriptor', `answers ${describeError(res)}`)
    return
  }
  if (json.id !== source.id) problems.push(`id is ${JSON.stringify(json.id)}`)
  for (const field of ['name', 'description', 'documentation', 'topic', 'operation_schema_url_template']) {
    if (typeof json[field] !== 'string' || json[field] === '') problems.push(`${field} is missing`)
  }
  if (!String(json.operation_schema_url_template).includes('{operation}'))
    problems.push('operation_schema_url_template has no {operation}')
  if (!Array.isArray(json.keywords)) problems.push('keywords is not a list')
  if (!Array.isArray(json.related_sources)) problems.push('related_sources is not a list')
  const operations = Array.isArray(json.operations) ? (json.operations as Json[]) : []
  const names = operations.map((o) => o.name)
  const expected = outlineNames(source)
  if (JSON.stringify(names) !== JSON.stringify(expected))
    problems.push(`operations are ${JSON.stringify(names)}, not ${JSON.stringify(expected)}`)
  for (const summary of operations) {
    const name = String(summary.name)
    if (typeof summary.signature !== 'string' || !summary.signature.startsWith(`${name}(`))
      problems.push(`${name}: signature is ${JSON.stringify(summary.signature)}`)
    for (const field of ['required_parameters', 'optional_parameters', 'output_fields']) {
      if (!Array.isArray(summary[field])) problems.push(`${name}: ${field} is not a list`)
    }
    if (typeof summary.get_url_template !== 'string') problems.push(`${name}: get_url_template is missing`)
    if (summary.operation_descriptor_url !== `${root}/kilder/${source.id}/${name}/schema`)
      problems.push(`${name}: operation_descriptor_url is ${JSON.stringify(summary.operation_descriptor_url)}`)
  }
  const meta = json._meta
  if (
    !isObject(meta) ||
    !Array.isArray(meta.sources) ||
    !(meta.sources as Json[]).some((s) => s.id === source.id && Number.isInteger(s.cache_ttl_seconds))
  ) {
    problems.push('_meta.sources does not carry the source with cache_ttl_seconds')
  }
  const links = isObject(json._links) ? json._links : {}
  for (const key of ['self', 'names', 'compact', 'full', 'wiki', 'feedback'])
    if (typeof links[key] !== 'string') problems.push(`_links.${key} is missing`)
  for (const view of ['names', 'compact']) {
    const other = await gateway.get(`/api/v1/kilder/${source.id}`, { view })
    if (other.status !== 200) problems.push(`view=${view} answers ${describeError(other)}`)
  }
  const index = await gateway.get('/api/v1/')
  if (
    !(
      isObject(index.json) &&
      Array.isArray(index.json.sources) &&
      (index.json.sources as Json[]).some((s) => s.id === source.id)
    )
  )
    problems.push('the API index does not list the source')
  rec.checkAll('the source descriptor (spec 2.5), its views and the API index entry', problems)
}

async function checkSchema(
  gateway: TestGateway,
  source: SourceDefinition,
  operation: OperationDefinition,
  rec: CheckRecorder,
): Promise<SchemaParameter[] | undefined> {
  const res = await gateway.get(`/api/v1/kilder/${source.id}/${operation.name}/schema`)
  const json = res.json as Json
  const what = `${operation.name}: its /schema descriptor`
  if (res.status !== 200 || !isObject(json)) {
    rec.check(what, `answers ${describeError(res)}`)
    return undefined
  }
  const problems: string[] = []
  if (json.source !== source.id || json.operation !== operation.name)
    problems.push(`names ${String(json.source)}/${String(json.operation)}`)
  if (typeof json.signature !== 'string' || !json.signature.startsWith(`${operation.name}(`))
    problems.push(`signature is ${JSON.stringify(json.signature)}`)
  const parameters = Array.isArray(json.parameters) ? (json.parameters as SchemaParameter[]) : []
  if (!Array.isArray(json.parameters)) problems.push('parameters is not a list')
  for (const p of parameters) {
    if (typeof p.name !== 'string' || typeof p.type !== 'string' || typeof p.required !== 'boolean')
      problems.push(`parameter ${JSON.stringify(p)} lacks name, type or required`)
  }
  if (!Array.isArray(json.output_fields)) problems.push('output_fields is not a list')
  if (!isObject(json.output_schema)) problems.push('output_schema is not a JSON Schema')
  if (!Number.isInteger(json.cache_ttl_seconds)) problems.push('cache_ttl_seconds is not an integer')
  rec.checkAll(what, problems)
  return parameters
}

async function checkOpenApi(
  gateway: TestGateway,
  source: SourceDefinition,
  subjects: Map<string, Subject>,
  rec: CheckRecorder,
): Promise<void> {
  const res = await gateway.get('/api/v1/openapi.json')
  if (res.status !== 200 || !isObject(res.json)) {
    rec.check('the OpenAPI document', `answers ${describeError(res)}`)
    return
  }
  const document = res.json
  const validation = await validateOpenApi(document)
  rec.check(
    'the OpenAPI document is valid OpenAPI 3.1',
    document.openapi !== '3.1.0'
      ? `it states openapi ${JSON.stringify(document.openapi)}`
      : validation.valid
        ? undefined
        : validation.errors.slice(0, 5).join('; '),
  )
  const paths = isObject(document.paths) ? document.paths : {}
  const problems: string[] = []
  for (const [name, subject] of subjects) {
    const item = paths[`/api/v1/kilder/${source.id}/${name}`]
    const get = isObject(item) && isObject(item.get) ? item.get : undefined
    if (!get) {
      problems.push(`no path for ${name}`)
      continue
    }
    if (get.operationId !== `${source.id}__${name}`)
      problems.push(`${name}: operationId is ${JSON.stringify(get.operationId)}`)
    const listed = Array.isArray(get.parameters) ? (get.parameters as Json[]).map((p) => p.name) : []
    const expected = subject.parameters.map((p) => p.name)
    if (JSON.stringify(listed) !== JSON.stringify(expected))
      problems.push(`${name}: parameters ${JSON.stringify(listed)}, not ${JSON.stringify(expected)}`)
  }
  rec.checkAll('the OpenAPI document has every operation with its parameters', problems)
}

function outputProblems(operation: OperationDefinition, json: Json, paging: ExpectedPaging): string[] {
  let data = json.data
  // The core adds has_more_results beside a named list; the definition's schema does not have it.
  if (paging.kind === 'field' && isObject(data)) {
    const { has_more_results: _added, ...own } = data
    data = own
  }
  const result = v.safeParse(operation.output, data)
  return result.success
    ? []
    : [`data does not match the output schema: ${v.summarize(result.issues).replace(/\n/g, '; ').slice(0, 400)}`]
}

async function checkCalls(
  gateway: TestGateway,
  source: SourceDefinition,
  subject: Subject,
  rec: CheckRecorder,
): Promise<void> {
  const { definition: operation, paging } = subject
  const expected: EnvelopeExpectation = {
    source: source.id,
    operation: operation.name,
    root,
    paging,
    parameterNames: subject.parameters.map((p) => p.name),
    defaults: subject.parameters.filter((p) => p.default !== undefined).map((p) => p.name),
    entityTypes: source.entityTypes ?? {},
    upstreamIds: source.upstreams.map((u) => u.id),
    cacheTtlSeconds: operation.cacheTtlSeconds ?? source.cacheTtlSeconds,
  }
  for (const [index, example] of subject.examples.entries()) {
    const name = subject.examples.length > 1 ? `${operation.name} (example ${index + 1})` : operation.name
    if (operation.placeField !== undefined) {
      rec.check(
        `${name}: a place-field example gives lat and lon`,
        'lat' in example && 'lon' in example
          ? undefined
          : `it fills ${operation.placeField.name}, so its example must give lat and lon`,
      )
    }
    const res = await gateway.call(source.id, operation.name, example)
    if (res.status !== 200) {
      rec.check(`${name}: answers 200 with the envelope of spec 2.1`, `answers ${describeError(res)}`)
      continue
    }
    const json = res.json as Json
    const kind = paging.kind === 'none' ? '' : ' and paging metadata'
    rec.checkAll(`${name}: answers 200 with the envelope of spec 2.1${kind}`, envelopeProblems(res, expected))
    rec.checkAll(`${name}: data matches the output schema`, outputProblems(operation, json, paging))
    if (index === 0 && paging.kind !== 'none') await checkPaging(gateway, source, subject, example, json, rec)
  }
}

async function checkPaging(
  gateway: TestGateway,
  source: SourceDefinition,
  subject: Subject,
  example: ExampleCall,
  first: Json,
  rec: CheckRecorder,
): Promise<void> {
  const name = subject.definition.name
  const list = listOf(first, subject.paging)
  if (!list || list.length < 2 || ('offset' in example && example.offset !== 0)) {
    rec.note(
      `${name}: paging was not exercised, as its example answers ${list?.length ?? 0} item(s); give one that answers two or more`,
    )
    return
  }
  const problems: string[] = []
  const one = await gateway.call(source.id, name, { ...example, limit: 1, offset: 0 })
  const next = await gateway.call(source.id, name, { ...example, limit: 1, offset: 1 })
  for (const [label, res, expectedItem] of [
    ['limit=1', one, list[0]],
    ['limit=1&offset=1', next, list[1]],
  ] as const) {
    if (res.status !== 200) {
      problems.push(`${label} answers ${describeError(res)}`)
      continue
    }
    const page = listOf(res.json as Json, subject.paging)
    const pagination = isObject(res.json._meta) ? (res.json._meta as Json).pagination : undefined
    if (page?.length !== 1) problems.push(`${label} answers ${page?.length ?? 'no'} items, not 1`)
    else if (JSON.stringify(page[0]) !== JSON.stringify(expectedItem))
      problems.push(
        `${label} answers ${JSON.stringify(page[0]).slice(0, 80)}, not the item at that offset in the first answer`,
      )
    if (!isObject(pagination) || pagination.has_more_results !== (label === 'limit=1' || list.length > 2))
      problems.push(
        `${label}: has_more_results is ${JSON.stringify(isObject(pagination) ? pagination.has_more_results : undefined)}`,
      )
  }
  rec.checkAll(`${name}: limit and offset page the list`, problems)
}

async function checkBadParameters(
  gateway: TestGateway,
  source: SourceDefinition,
  subject: Subject,
  upstreams: Record<string, TestUpstream>,
  rec: CheckRecorder,
): Promise<void> {
  const name = subject.definition.name
  const base = subject.examples[0] ?? {}
  const cases: { what: string; query: ExampleCall; parameter: string; code: string; rule?: string }[] = [
    {
      what: 'an unknown parameter',
      query: { ...base, zz_not_a_parameter: 'x' },
      parameter: 'zz_not_a_parameter',
      code: 'unknown_parameter',
      rule: 'unknown',
    },
  ]
  for (const p of subject.parameters) {
    if (p.required) {
      const { [p.name]: _left, ...rest } = base
      cases.push({
        what: `a missing ${p.name}`,
        query: rest,
        parameter: p.name,
        code: 'invalid_parameter',
        rule: 'required',
      })
    }
  }
  const typed = subject.parameters.find((p) => p.type !== 'string' && p.name !== 'limit' && p.name !== 'offset')
  if (typed)
    cases.push({
      what: `${typed.name} of the wrong type`,
      query: { ...base, [typed.name]: 'zz-not-a-value' },
      parameter: typed.name,
      code: 'invalid_parameter',
      rule: 'type',
    })
  const listed = subject.parameters.find((p) => p.type === 'string' && Array.isArray(p.schema?.enum))
  if (listed)
    cases.push({
      what: `${listed.name} outside its allowed values`,
      query: { ...base, [listed.name]: 'zz-not-allowed' },
      parameter: listed.name,
      code: 'invalid_parameter',
    })
  if (subject.paging.kind !== 'none') {
    cases.push({
      what: 'limit=0',
      query: { ...base, limit: 0 },
      parameter: 'limit',
      code: 'invalid_parameter',
      rule: 'min_value',
    })
    const max = subject.parameters.find((p) => p.name === 'limit')?.schema?.maximum
    if (typeof max === 'number')
      cases.push({
        what: `limit=${max + 1}`,
        query: { ...base, limit: max + 1 },
        parameter: 'limit',
        code: 'invalid_parameter',
        rule: 'max_value',
      })
  }
  for (const bad of cases) {
    const before = requestCount(upstreams)
    const res = await gateway.call(source.id, name, bad.query)
    const problems = errorBodyProblems(res, 400)
    const error = isObject(res.json) && isObject(res.json.error) ? res.json.error : {}
    if (res.status === 400) {
      if (error.code !== bad.code) problems.push(`error.code is ${JSON.stringify(error.code)}, not ${bad.code}`)
      const details = Array.isArray(error.details) ? (error.details as Json[]) : []
      if (!details.some((d) => d.parameter === bad.parameter && (bad.rule === undefined || d.rule === bad.rule))) {
        problems.push(
          `error.details does not name ${bad.parameter}${bad.rule ? ` with rule ${bad.rule}` : ''} (got ${JSON.stringify(details).slice(0, 200)})`,
        )
      }
    }
    if (requestCount(upstreams) !== before) problems.push('the upstream was called for a request the gateway refuses')
    rec.checkAll(`${name}: ${bad.what} is the shared 400 naming it`, problems)
  }
}

async function checkEntitySearch(
  gateway: TestGateway,
  source: SourceDefinition,
  search: string | undefined,
  rec: CheckRecorder,
): Promise<void> {
  if (!source.entitySearch) return
  const what = 'its entity search answers /api/v1/sok/alle with hits linked to its operations'
  if (search === undefined) {
    rec.check(what, 'the source declares entitySearch; give `search`, a text its fakes find an entity for')
    return
  }
  const res = await gateway.get('/api/v1/sok/alle', { q: search, mode: 'entities', sources: source.id, limit: 10 })
  const json = res.json as Json
  if (res.status !== 200 || !isObject(json)) {
    rec.check(what, `answers ${describeError(res)}`)
    return
  }
  const problems: string[] = []
  const coverage = isObject(json.coverage) ? json.coverage[source.id] : undefined
  if (!isObject(coverage) || coverage.status !== 'ok')
    problems.push(`coverage.${source.id} is ${JSON.stringify(coverage)}`)
  const results = Array.isArray(json.results) ? (json.results as Json[]) : []
  if (results.length === 0) problems.push(`nothing was found for ${JSON.stringify(search)}`)
  for (const hit of results) {
    const type = source.entityTypes?.[String(hit.type)]
    if (!type) {
      problems.push(`a hit has type ${JSON.stringify(hit.type)}, which entityTypes does not declare`)
      continue
    }
    const api = isObject(hit._links) ? hit._links.api : undefined
    if (
      hit.source !== source.id ||
      typeof api !== 'string' ||
      !api.startsWith(`${root}/kilder/${source.id}/${type.operation}`)
    ) {
      problems.push(`hit ${String(hit.id)} links to ${JSON.stringify(api)}, not to ${type.operation}`)
    }
  }
  rec.checkAll(what, problems)
}

async function checkUpstreamFailures(
  make: () => SourceDefinition,
  source: SourceDefinition,
  subjects: Map<string, Subject>,
  options: CheckSourceOptions,
  rec: CheckRecorder,
): Promise<void> {
  let reply: FakeReply = upstreamFailurePlays.status.reply
  const broken = await startFakeUpstream({}, { fallback: () => reply })
  const names = new Map(source.upstreams.map((u) => [u.id, u.name]))
  try {
    for (const mode of options.failures ?? (['status', 'timeout', 'drop', 'html'] as const)) {
      const play = upstreamFailurePlays[mode]
      reply = play.reply
      const timeoutMs = options.timeoutMs ?? 300
      const upstreams = Object.fromEntries(source.upstreams.map((u) => [u.id, { baseUrl: broken.baseUrl, timeoutMs }]))
      // A fresh source and gateway: nothing remembered from the calls that succeeded.
      const gateway = createTestGateway({
        sources: make(),
        upstreams,
        publicBaseUrl: origin,
        ...(options.datasets ? { datasets: options.datasets } : {}),
      })
      await Promise.all(
        [...subjects.values()].map(async (subject) => {
          const name = subject.definition.name
          const what = `${name}: when its upstream ${play.what}, a 502 naming it`
          const res = await gateway.call(source.id, name, subject.examples[0] ?? {})
          if (res.status === 200 && calledUpstreams(res) === 0) {
            // A table in the source, a dataset: no upstream to fail.
            if (mode === 'status')
              rec.note(`${name}: answers without calling an upstream, so upstream failures do not reach it`)
            return
          }
          if (res.status === 200) {
            rec.check(what, 'it called the failing upstream and answered 200 as if nothing failed')
            return
          }
          const problems = errorBodyProblems(res, 502)
          const error = isObject(res.json) && isObject(res.json.error) ? res.json.error : {}
          if (res.status === 502) {
            if (error.code !== play.code) problems.push(`error.code is ${JSON.stringify(error.code)}, not ${play.code}`)
            const id = String(error.upstream)
            if (!names.has(id))
              problems.push(`error.upstream is ${JSON.stringify(error.upstream)}, not an upstream of the source`)
            else if (!String(error.message).startsWith(`Upstream ${names.get(id)} (${id}) `))
              problems.push(`error.message ${JSON.stringify(error.message)} does not name the upstream`)
          }
          rec.checkAll(what, problems)
        }),
      )
      if (source.entitySearch && options.search !== undefined) {
        const res = await gateway.get('/api/v1/sok/alle', { q: options.search, mode: 'entities', sources: source.id })
        rec.check(
          `its entity search, when its upstream ${play.what}, still lets /api/v1/sok/alle answer`,
          res.status === 200 ? undefined : `answers ${describeError(res)}`,
        )
      }
      rec.checkAll(
        `nothing failed unexpectedly inside the gateway when the upstream ${play.what}`,
        internalErrors(gateway),
      )
    }
  } finally {
    await broken.close()
  }
}

function pagingOf(operation: OperationDefinition, parameters: SchemaParameter[]): ExpectedPaging {
  if (!parameters.some((p) => p.name === 'limit')) return { kind: 'none' }
  return operation.list !== undefined ? { kind: 'field', field: operation.list } : { kind: 'data' }
}

/**
 * Checks a source the way the gateway relies on it, against local fakes of its upstreams:
 * - the gateway accepts the definition; the source descriptor (spec 2.5), its views, each
 *   operation's `/schema` and the OpenAPI 3.1 document are generated and valid;
 * - every operation's example calls answer 200 with the envelope of spec 2.1–2.3, `data`
 *   matching the output schema, paging metadata where `data` is a list, and `limit`/`offset`
 *   really paging it;
 * - an unknown parameter, each missing required one, a wrongly typed or disallowed value and
 *   an out-of-range `limit` are answered with the shared 400 naming the parameter, without
 *   calling the upstream;
 * - when its upstreams answer 503, hang, drop the connection or send an HTML page, every
 *   operation that reached one answers a 502 naming it, and nothing breaks inside the gateway;
 * - an entity search (when declared) finds entities linked to the source's operations.
 *
 * It resolves to a report of every passed check, or rejects with a `SourceCheckError` listing
 * every failure. It needs no test framework. Pass the source's factory rather than one
 * definition when the source keeps a memo, so each phase starts from a fresh one.
 *
 * @example
 * const met = await startFakeUpstream({ '/compact': () => fakeReply.json(forecast) })
 * const report = await checkSource(weather, { upstreams: { met }, examples: { get_forecast: { lat: 59.91, lon: 10.75 } } })
 * expect(report.passed.length).toBeGreaterThan(20)
 */
export async function checkSource(
  source: SourceDefinition | (() => SourceDefinition),
  options: CheckSourceOptions,
): Promise<SourceCheckReport> {
  const make = typeof source === 'function' ? source : () => source
  const definition = make()
  const missing = definition.upstreams.filter((u) => options.upstreams[u.id] === undefined).map((u) => u.id)
  if (missing.length > 0) {
    throw new TypeError(
      `checkSource(${definition.id}): give a local fake for every upstream, so the check reaches no real service; missing: ${missing.join(', ')}`,
    )
  }
  const unknownExamples = Object.keys(options.examples ?? {}).filter((name) => !outlineNames(definition).includes(name))
  if (unknownExamples.length > 0)
    throw new TypeError(
      `checkSource(${definition.id}): examples name ${unknownExamples.join(', ')}, which the source does not have`,
    )

  const rec = new CheckRecorder()
  const operations = outlineNames(definition)
  const finish = (): SourceCheckReport => {
    const report = rec.report(definition.id, operations)
    if (rec.failures.length > 0) throw new SourceCheckError(report, rec.failures)
    return report
  }

  // Deferred operations are loaded and compared with their outline first; the gateway is then
  // made with them in hand, so that a definition error stops it here rather than in the background.
  let loaded: readonly OperationDefinition[]
  try {
    loaded = await loadOperations(definition)
    rec.check('its operations load as outlined', undefined)
  } catch (error) {
    rec.check('its operations load as outlined', error instanceof Error ? error.message : String(error))
    return finish()
  }
  let gateway: TestGateway
  try {
    gateway = createTestGateway({
      sources: { ...definition, operations: [...loaded] },
      upstreams: options.upstreams,
      publicBaseUrl: origin,
      ...(options.datasets ? { datasets: options.datasets } : {}),
    })
    rec.check('the gateway accepts the definition', undefined)
  } catch (error) {
    rec.check('the gateway accepts the definition', error instanceof Error ? error.message : String(error))
    return finish()
  }

  await checkDescriptor(gateway, definition, rec)
  const subjects = new Map<string, Subject>()
  for (const operation of loaded) {
    const parameters = await checkSchema(gateway, definition, operation, rec)
    if (!parameters) continue
    const given = options.examples?.[operation.name]
    const examples = given === undefined ? [] : Array.isArray(given) ? given : [given]
    const required = parameters.filter((p) => p.required).map((p) => p.name)
    if (examples.length === 0 && required.length > 0) {
      rec.check(
        `${operation.name}: has an example call`,
        `it requires ${required.join(', ')}; give examples.${operation.name}`,
      )
      continue
    }
    subjects.set(operation.name, {
      definition: operation,
      parameters,
      paging: pagingOf(operation, parameters),
      examples: examples.length > 0 ? examples : [{}],
    })
  }
  await checkOpenApi(gateway, definition, subjects, rec)
  for (const subject of subjects.values()) await checkCalls(gateway, definition, subject, rec)
  for (const subject of subjects.values())
    await checkBadParameters(gateway, definition, subject, options.upstreams, rec)
  await checkEntitySearch(gateway, definition, options.search, rec)
  rec.checkAll('nothing failed unexpectedly inside the gateway', internalErrors(gateway))
  await checkUpstreamFailures(make, definition, subjects, options, rec)
  return finish()
}
