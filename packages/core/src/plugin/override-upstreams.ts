import type { SourceDefinition } from './define-source.js'
import type { UpstreamOverride } from './define-upstream.js'

/**
 * A copy of a source whose upstreams carry the given overrides (by upstream id). Operations
 * still reach them by their original handles, since the gateway resolves a handle by its id.
 *
 * @example
 * overrideUpstreams(firmafakta(), { brreg: { baseUrl: 'http://127.0.0.1:8080/enhetsregisteret/api' } })
 */
export function overrideUpstreams(
  source: SourceDefinition,
  overrides: Record<string, UpstreamOverride>,
): SourceDefinition {
  if (!source.upstreams.some((u) => overrides[u.id] !== undefined)) return source
  return {
    ...source,
    upstreams: source.upstreams.map((u) => (overrides[u.id] ? Object.freeze({ ...u, ...overrides[u.id] }) : u)),
  }
}
