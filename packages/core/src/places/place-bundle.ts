import type { CompiledSource } from '../compile/compile-source.js'
import { GatewayError } from '../http/gateway-error.js'
import type { Links } from '../http/links.js'
import { buildMeta } from '../pipeline/meta.js'
import type { UpstreamProvenance } from '../pipeline/provenance.js'
import type { PlaceProviders } from '../compile/place-providers.js'
import { placeSections, sectionFields } from '../compile/place-sections.js'

/** What an operation call from inside the gateway resolves to: the parts of its envelope a bundle keeps. */
export interface InvokedEnvelope {
  data: unknown
  _meta: { stale?: boolean; stale_reason?: string }
  _provenance: { upstreams?: UpstreamProvenance[] }
}

export interface PlaceOptions {
  /** The whole bundle's time limit; 5000 ms by default. A field not in by then is `timeout`. */
  deadlineMs?: number
}

/** How one field of a bundle went. */
export interface FieldAnswer {
  section: string
  status: 'ok' | 'stale' | 'error' | 'timeout' | 'not_configured'
  /** The source and operation that filled it (or failed to). */
  source: string
  operation: string
  data: unknown
  /** Why it is not `ok`. */
  message?: string
  /** What would make a `not_configured` field work: the variable to set, or the command that loads its dataset. */
  configure?: string
  /** Who publishes the data, under which licence. */
  attribution: { upstream: string; publisher: string; license?: string }[]
  took_ms: number
  _links: { api?: string }
}

const failed = (status: FieldAnswer['status']) => status !== 'ok' && status !== 'stale'

const timedOut = Symbol('timed out')

/** What assembling and serialising a bundle may take after its last field is in. */
const assemblyMs = 25

async function fetchField(
  field: string,
  providers: PlaceProviders,
  point: { lat: number; lon: number },
  deadline: number,
  call: (source: CompiledSource, operation: string, parameters: Record<string, unknown>) => Promise<InvokedEnvelope>,
  links: Links,
): Promise<FieldAnswer> {
  const provider = providers.get(field)
  // The query accepts only the fields of this gateway, so every field asked for has a provider.
  if (!provider) throw new TypeError(`No source of this gateway fills the place field ${field}`)
  const { source, operation } = provider
  const section = provider.field.section
  const started = Date.now()
  const base = {
    section,
    source: source.id,
    operation: operation.name,
    _links: { api: links.operation(source.id, operation.name, point) },
  }
  let timer: NodeJS.Timeout | undefined
  try {
    const timeout = new Promise<typeof timedOut>((resolve) => {
      timer = setTimeout(() => resolve(timedOut), Math.max(0, deadline - started))
    })
    const outcome = await Promise.race([call(source, operation.name, point), timeout])
    const took_ms = Date.now() - started
    if (outcome === timedOut) {
      return {
        ...base,
        status: 'timeout',
        data: null,
        message: `No answer within the bundle's deadline`,
        attribution: [],
        took_ms,
      }
    }
    const attribution = (outcome._provenance.upstreams ?? []).map((u) => ({
      upstream: u.id,
      publisher: u.publisher,
      ...(u.license ? { license: u.license } : {}),
    }))
    const stale = outcome._meta.stale === true
    return {
      ...base,
      status: stale ? 'stale' : 'ok',
      data: outcome.data,
      ...(stale ? { message: outcome._meta.stale_reason } : {}),
      attribution,
      took_ms,
    }
  } catch (error) {
    const took_ms = Date.now() - started
    if (!(error instanceof GatewayError)) throw error
    // What the deployment must give is typed on the error; an upstream may say it is not configured without naming it.
    const configure = error.configure
    const notConfigured = configure !== undefined || error.code === 'upstream_not_configured'
    return {
      ...base,
      status: notConfigured ? 'not_configured' : 'error',
      data: null,
      message: error.message,
      ...(configure ? { configure } : {}),
      attribution: [],
      took_ms,
    }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The data bundle of `/api/v1/steder/{lat}/{lon}`: each requested field fetched concurrently
 * from the operation that fills it, through the gateway's pipeline (same cache, same single
 * flight), under one deadline. Each field says how it went and whose data it is; one slow or
 * failing upstream never sinks the bundle, which is a 502 only when every field failed.
 */
export async function placeBundle(args: {
  point: { lat: number; lon: number }
  section: string
  fields: string[] | undefined
  providers: PlaceProviders
  options: PlaceOptions
  call: (source: CompiledSource, operation: string, parameters: Record<string, unknown>) => Promise<InvokedEnvelope>
  links: Links
}) {
  const { point, links } = args
  const wanted = args.fields ?? sectionFields(args.providers, args.section)
  if (wanted.length === 0) {
    // Only summary can be empty: when no source of this gateway declares a field summary: true.
    throw new GatewayError(502, 'upstream_error', `No source of this gateway fills a field of section ${args.section}`)
  }
  // Fields get the deadline less a moment for putting the answer together, so the answer itself is in time.
  const deadline = Date.now() + Math.max(0, (args.options.deadlineMs ?? 5000) - assemblyMs)
  const answers = await Promise.all(
    wanted.map((field) => fetchField(field, args.providers, point, deadline, args.call, links)),
  )
  const fields = Object.fromEntries(wanted.map((field, i) => [field, answers[i]!]))
  if (answers.every((a) => failed(a.status))) {
    throw new GatewayError(
      502,
      'upstream_error',
      `No field of the place bundle could be fetched: ${answers.map((a, i) => `${wanted[i]} ${a.status}`).join(', ')}`,
      {
        details: answers.map((a, i) => ({ parameter: wanted[i]!, problem: a.message ?? a.status, rule: a.status })),
      },
    )
  }
  const used = new Set(wanted.map((field) => args.providers.get(field)!.source.definition))
  return {
    lat: point.lat,
    lon: point.lon,
    section: args.fields ? null : args.section,
    requested_fields: wanted,
    fields,
    summary: {
      ok: answers.filter((a) => a.status === 'ok').length,
      stale: answers.filter((a) => a.status === 'stale').length,
      failed: answers.filter((a) => failed(a.status)).length,
    },
    _meta: buildMeta([...used]),
    _links: {
      self: links.to('place', point, args.fields ? { fields: wanted.join(',') } : { section: args.section }),
      sections: Object.fromEntries(
        placeSections(args.providers).map((s) => [s, links.to('place', point, { section: s })]),
      ),
      search: links.to('place_search'),
    },
  }
}

/** How long a bundle stays fresh: its shortest field's freshness, and briefly when a field failed. */
export function bundleTtlSeconds(bundle: { fields: Record<string, FieldAnswer> }, providers: PlaceProviders): number {
  const answers = Object.entries(bundle.fields)
  if (answers.some(([, a]) => a.status !== 'ok')) return 5
  const ttls = answers.map(([field]) => providers.get(field)?.operation.cacheTtlSeconds ?? 60)
  return Math.min(300, ...ttls)
}
