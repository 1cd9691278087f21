import { upstreamEnvironmentVariable } from '@allmenning/core'
import { builtInSources } from '@allmenning/sources'

/**
 * An environment for the example servers and builtInSources in which every built-in upstream
 * points at the loopback: at the given stand-ins, and the rest at a closed port, so a request
 * that reaches them is a 502, never a call to the real service.
 *
 * @example
 * createApp(offlineEnvironment({ ALLMENNING_UPSTREAM_BRREG: brreg.baseUrl }))
 */
export function offlineEnvironment(given: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const source of builtInSources()) {
    for (const upstream of source.upstreams) env[upstreamEnvironmentVariable(upstream.id)] = 'http://127.0.0.1:9'
  }
  return { ...env, ...given }
}
