import type { CompiledSource } from '../compile/compile-source.js'
import { GatewayError } from '../http/gateway-error.js'
import { isDatasetNotLoaded } from '../dataset/dataset-not-loaded.js'
import type { EntityHit, EntitySearchContext } from '../plugin/entity-search.js'
import { matchTier, matchTierCount } from '../text/rank-by-name.js'

/** How one source's search went, as `coverage` reports it. */
export interface SourceCoverage {
  status: 'ok' | 'timeout' | 'error' | 'not_loaded'
  /** Hits this source gave. */
  returned: number
  /** Entities it matched in all, when it knows. */
  matched: number
  took_ms: number
  /** What went wrong, for `error` and `not_loaded`. */
  message?: string
}

/** A hit with the source it came from and how well it matches the text. */
export interface RankedHit {
  source: CompiledSource
  hit: EntityHit
  tier: number
}

export interface FanOutOptions {
  limit: number
  /** When every source's answer must be in. */
  deadline: number
  /** The longest one source may take. */
  sourceTimeoutMs: number
  /** Calls an operation of a source through the pipeline and resolves to its data. */
  call(
    source: CompiledSource,
    operation: string,
    parameters: Record<string, string | number | boolean>,
  ): Promise<unknown>
}

const timedOut = Symbol('timed out')

function waitUntil(ms: number, signal: AbortSignal): Promise<typeof timedOut> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(timedOut), Math.max(0, ms))
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true })
  })
}

async function searchOne(source: CompiledSource, query: string, options: FanOutOptions) {
  const started = Date.now()
  const budget = Math.min(options.sourceTimeoutMs, options.deadline - started)
  const controller = new AbortController()
  const context: EntitySearchContext = {
    limit: options.limit,
    signal: controller.signal,
    call: (operation, parameters) => options.call(source, operation, parameters),
  }
  const took = () => Date.now() - started
  try {
    const outcome = await Promise.race([
      source.definition.entitySearch!.search(query, context),
      waitUntil(budget, controller.signal),
    ])
    if (outcome === timedOut) {
      return {
        hits: [],
        coverage: { status: 'timeout', returned: 0, matched: 0, took_ms: took() } satisfies SourceCoverage,
      }
    }
    const hits = outcome.hits.slice(0, options.limit)
    return {
      hits,
      coverage: {
        status: 'ok',
        returned: hits.length,
        matched: Math.max(outcome.matched ?? 0, hits.length),
        took_ms: took(),
      } satisfies SourceCoverage,
    }
  } catch (error) {
    // A search that finds no such entity has simply found nothing.
    if (error instanceof GatewayError && error.code === 'entity_not_found') {
      return { hits: [], coverage: { status: 'ok', returned: 0, matched: 0, took_ms: took() } satisfies SourceCoverage }
    }
    const notLoaded = isDatasetNotLoaded(error)
    const message = error instanceof GatewayError ? error.message : 'the search failed unexpectedly'
    return {
      hits: [],
      coverage: {
        status: notLoaded ? 'not_loaded' : 'error',
        returned: 0,
        matched: 0,
        took_ms: took(),
        message,
      } satisfies SourceCoverage,
      error,
    }
  } finally {
    controller.abort()
  }
}

/**
 * Searches the entities of several sources concurrently, each within its budget and all
 * within one deadline: a slow source costs the deadline, never more. The hits come back as
 * one list ranked by how well their names match the text (see matchTier), then by source
 * order and each source's own order.
 */
export async function fanOutEntitySearch(query: string, sources: readonly CompiledSource[], options: FanOutOptions) {
  const outcomes = await Promise.all(sources.map((source) => searchOne(source, query, options)))
  const coverage: Record<string, SourceCoverage> = {}
  const failures: unknown[] = []
  const ranked: (RankedHit & { order: number })[] = []
  outcomes.forEach((outcome, sourceIndex) => {
    const source = sources[sourceIndex]!
    coverage[source.id] = outcome.coverage
    if ('error' in outcome && outcome.coverage.status === 'error') failures.push(outcome.error)
    outcome.hits.forEach((hit, hitIndex) => {
      const tier = matchTier(query, { codes: [hit.id], names: [hit.name] }) ?? matchTierCount
      ranked.push({ source, hit, tier, order: sourceIndex * 1000 + hitIndex })
    })
  })
  ranked.sort((a, b) => a.tier - b.tier || a.order - b.order)
  return { hits: ranked as RankedHit[], coverage, failures }
}
