/**
 * One upstream service, declared once and reached by its handle: `ctx.upstream(brreg)`. What it
 * says here is what provenance, 502 messages and the overrides go by.
 */
export interface UpstreamDefinition {
  /** Short id, unique in a gateway: `brreg`, `avinor`. Overrides are keyed by it. */
  readonly id: string
  /** Human-readable name used in provenance and in 502 messages. */
  readonly name: string
  /** The real service's base URL; a gateway's `upstreams` option or `ALLMENNING_UPSTREAM_<ID>` overrides it. */
  readonly baseUrl: string
  /** Who runs the service and publishes its data. */
  readonly publisher: string
  /** Licence of the data it serves, as the publisher names it (`NLOD 2.0`). */
  readonly license?: string
  /** Per-call time limit in milliseconds, when it differs from the gateway's. */
  readonly timeoutMs?: number
  /**
   * Largest body accepted from it, in bytes, sized to what the real service sends; the
   * gateway's `upstream.maxBodyBytes` (2 MiB) when absent. A larger answer is a 502, dropped
   * as soon as it passes the limit, so it can neither fill memory nor stall the event loop.
   */
  readonly maxBodyBytes?: number
  /** Most calls to it in flight at once, from one gateway; the gateway's `upstream.maxConcurrent` when absent. */
  readonly maxConcurrent?: number
}

/** What a deployment may change about one upstream. */
export interface UpstreamOverride {
  baseUrl?: string
  timeoutMs?: number
  maxBodyBytes?: number
  maxConcurrent?: number
}

/**
 * Declares an upstream. The returned handle is what a source lists in `upstreams` and what its
 * operations pass to `ctx.upstream()`, so a misspelt upstream is a compile error, not a 500.
 *
 * @example
 * export const met = defineUpstream({
 *   id: 'met', name: 'MET Norway Locationforecast', baseUrl: 'https://api.met.no/weatherapi',
 *   publisher: 'MET Norway', license: 'CC BY 4.0',
 * })
 * // in an operation: const res = await ctx.upstream(met).getJson('/locationforecast/2.0/compact', { query })
 */
export function defineUpstream(definition: UpstreamDefinition): UpstreamDefinition {
  if (!/^[a-z][a-z0-9_]*$/.test(definition.id)) {
    throw new TypeError(`Upstream id "${definition.id}" must be lower-case letters, digits or "_"`)
  }
  for (const field of ['timeoutMs', 'maxBodyBytes', 'maxConcurrent'] as const) {
    const value = definition[field]
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new TypeError(`Upstream ${definition.id}: ${field} must be a positive whole number (got ${value})`)
    }
  }
  try {
    new URL(definition.baseUrl)
  } catch {
    throw new TypeError(`Upstream ${definition.id}: baseUrl "${definition.baseUrl}" is not an absolute URL`)
  }
  return Object.freeze({ ...definition })
}

/** The environment variable that overrides an upstream's base URL: `ALLMENNING_UPSTREAM_BRREG`. */
export function upstreamEnvironmentVariable(id: string): string {
  return `ALLMENNING_UPSTREAM_${id.toUpperCase()}`
}

/**
 * Upstream overrides read from an environment: `ALLMENNING_UPSTREAM_<ID>` for the base URL and
 * `ALLMENNING_UPSTREAM_<ID>_TIMEOUT_MS` for the time limit, for each id given. A timeout that is
 * not a positive whole number is an error, so a typo does not silently keep the default.
 *
 * @example
 * createGateway({ sources, upstreams: upstreamOverridesFromEnvironment(process.env, ['brreg', 'avinor']) })
 */
export function upstreamOverridesFromEnvironment(
  env: Record<string, string | undefined>,
  ids: Iterable<string>,
): Record<string, UpstreamOverride> {
  const overrides: Record<string, UpstreamOverride> = {}
  for (const id of ids) {
    const name = upstreamEnvironmentVariable(id)
    const baseUrl = env[name]?.trim()
    const timeout = env[`${name}_TIMEOUT_MS`]?.trim()
    const override: UpstreamOverride = {}
    if (baseUrl) override.baseUrl = baseUrl
    if (timeout) {
      if (!/^\d+$/.test(timeout) || Number(timeout) < 1) {
        throw new TypeError(`${name}_TIMEOUT_MS must be a positive whole number of milliseconds (got "${timeout}")`)
      }
      override.timeoutMs = Number(timeout)
    }
    if (Object.keys(override).length > 0) overrides[id] = override
  }
  return overrides
}
