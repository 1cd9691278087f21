import type { UpstreamDefinition } from '../plugin/define-upstream.js'

/** One upstream an operation call reached, with every URL it called there. */
export interface UpstreamUse {
  upstream: UpstreamDefinition
  urls: string[]
}

/** An upstream as `_provenance.upstreams` lists it. */
export interface UpstreamProvenance {
  id: string
  name: string
  publisher: string
  license?: string
  /** The first URL called there, or the service's base URL when the answer came from memory. */
  source_api: string
  /** How many calls this answer made there (0 when it was answered from the source's memory). */
  calls: number
}

const unique = (values: (string | undefined)[]) => [...new Set(values.filter((v): v is string => v !== undefined))]

/**
 * `_provenance` of spec 2.3 for one answer: `data` names the publishers of every upstream the
 * answer used and the URL it came from; `upstreams` lists each of them with its licence, so a
 * bundle drawn from a dozen services credits every one.
 *
 * @example
 * buildProvenance({ sourceName: 'Firmafakta', uses, fallback: brreg, sourceApi: undefined, hasRawValues: false })
 */
export function buildProvenance(args: {
  sourceName: string
  uses: UpstreamUse[]
  /** The upstream credited when the operation reached none (an answer computed locally). */
  fallback: UpstreamDefinition
  /** The URL the operation names as the data's origin, when it knows better than the first call. */
  sourceApi: string | undefined
  hasRawValues: boolean
}) {
  const uses = args.uses.length > 0 ? args.uses : [{ upstream: args.fallback, urls: [] }]
  const sourceApi = args.sourceApi ?? uses.flatMap((u) => u.urls)[0] ?? uses[0]!.upstream.baseUrl
  const licenses = unique(uses.map((u) => u.upstream.license))
  const data = {
    source: unique(uses.map((u) => u.upstream.publisher)).join('; '),
    source_api: sourceApi,
    description: licenses.length > 0 ? `${args.sourceName}; licence ${licenses.join(', ')}` : args.sourceName,
  }
  const upstreams: UpstreamProvenance[] = uses.map(({ upstream, urls }) => ({
    id: upstream.id,
    name: upstream.name,
    publisher: upstream.publisher,
    ...(upstream.license ? { license: upstream.license } : {}),
    source_api: urls[0] ?? upstream.baseUrl,
    calls: urls.length,
  }))
  return {
    data,
    entities: {
      source: 'allmenning',
      source_api: sourceApi,
      derived_from: 'data',
      description: 'Entities the gateway extracted from the data',
    },
    ...(args.hasRawValues ? { _raw_values: { ...data, description: 'Unprocessed upstream values' } } : {}),
    upstreams,
  }
}
