import type { CompiledSource } from '../compile/compile-source.js'
import { GatewayError } from '../http/gateway-error.js'
import type { DatasetDefinition } from '../plugin/define-dataset.js'
import { missingSettings } from '../plugin/missing-settings.js'
import { UpstreamError } from '../http/upstream-error.js'

/** A source's state as `/api/v1/health` reports it. */
export type SourceState = 'ok' | 'degraded' | 'failing' | 'not_configured'

/** A circuit breaker's state: `open` while its upstream is rested, `half-open` while one probe call is out. */
export type BreakerState = 'closed' | 'open' | 'half-open'

/** The last failure of a source's operations. */
export interface SourceFailure {
  at: string
  operation: string
  /** The error's machine-readable code (`upstream_timeout`, `upstream_status` …). */
  code: string
  /** The upstream that failed, when an upstream did. */
  upstream?: string
  message: string
}

/** One source's health, built from what the gateway has seen. */
export interface SourceHealth {
  id: string
  name: string
  state: SourceState
  /** When one of its operations last made an answer from its upstreams or datasets; null when none has since start. */
  last_ok_at: string | null
  last_error: SourceFailure | null
  /** Failures in a row since its last good answer. */
  failures_in_a_row: number
  /** Each of its upstreams' circuit breaker. */
  breakers: Array<{ upstream: string; state: BreakerState }>
  cache_ttl_seconds: number
  /** The settings the deployment has not given, and the operations each leaves unable to answer. */
  not_configured: Array<{ configure: string; operations: string[] }>
  /** The bulk datasets its operations read, and whether the dataset store has each loaded. */
  datasets: Array<{ id: string; loaded: boolean }>
}

/** Failures in a row from which a source counts as failing rather than degraded. */
const failingAfter = 3

interface Tally {
  lastOkAt: number | undefined
  lastError: SourceFailure | undefined
  failuresInARow: number
}

/** What the recorder hears from the operation pipeline and the upstream guards. */
export interface SourceHealthRecorder {
  /** An operation of the source made an answer (not one read from a cache). */
  answered(source: string): void
  /** An operation of the source failed to make one. */
  failed(source: string, operation: string, error: unknown): void
  /** An upstream's breaker changed state. */
  breakerChanged(upstream: string, state: BreakerState): void
  /** Every source's health now, in the catalog's order; reads only what was recorded. */
  report(): SourceHealth[]
}

/** Why a failure was not the source's own: a bad request or an unknown entity says nothing of its health. */
const isClientFault = (error: unknown) =>
  error instanceof GatewayError && !(error instanceof UpstreamError) && error.status < 500

/** A missing key or dataset is the deployment's to give: reported as such, not as the source failing. */
const isUnconfigured = (error: unknown) =>
  error instanceof GatewayError && (error.code === 'upstream_not_configured' || error.code === 'dataset_not_loaded')

function failureOf(operation: string, error: unknown): SourceFailure {
  const at = new Date().toISOString()
  if (error instanceof UpstreamError)
    return { at, operation, code: error.code, upstream: error.upstream.id, message: error.message }
  if (error instanceof GatewayError) return { at, operation, code: error.code, message: error.message }
  // Anything else is a fault of the gateway or the source's code: its text is for the logs, not for a public page.
  return {
    at,
    operation,
    code: 'internal_error',
    message: 'The operation failed inside the gateway; the operators\u2019 log has the details',
  }
}

/**
 * Keeps, per source, when it last answered well, its last failure and how many came in a row,
 * and each upstream's breaker: what `/api/v1/health` reports. It hears only answers made and
 * failures (cache hits cost it nothing), and a report calls no upstream.
 *
 * @example
 * const health = createSourceHealth(() => catalog.sources, () => true)
 * health.failed('nobil', 'find_charging_stations', new Error('socket hang up'))
 * health.report()[0]?.state // 'degraded'
 */
export function createSourceHealth(
  sources: () => readonly CompiledSource[],
  datasetLoaded: (dataset: DatasetDefinition) => boolean,
): SourceHealthRecorder {
  const tallies = new Map<string, Tally>()
  const breakers = new Map<string, BreakerState>()
  const tally = (source: string) => {
    let known = tallies.get(source)
    if (!known) {
      known = { lastOkAt: undefined, lastError: undefined, failuresInARow: 0 }
      tallies.set(source, known)
    }
    return known
  }
  return {
    answered(source) {
      const known = tally(source)
      known.lastOkAt = Date.now()
      known.failuresInARow = 0
    },
    failed(source, operation, error) {
      if (isClientFault(error) || isUnconfigured(error)) return
      const known = tally(source)
      known.lastError = failureOf(operation, error)
      known.failuresInARow++
    },
    breakerChanged(upstream, state) {
      breakers.set(upstream, state)
    },
    report() {
      return sources().map((source) => {
        const known = tallies.get(source.id)
        const names = source.outline.map(({ name }) => name)
        const missing = missingSettings(source.definition, names)
        const notConfigured = (source.definition.notConfigured ?? []).map(({ configure, operations }) => ({
          configure,
          operations: operations ?? names,
        }))
        const datasets = (source.definition.datasets ?? []).map((dataset) => ({
          id: dataset.id,
          loaded: datasetLoaded(dataset),
        }))
        const upstreamBreakers = [...source.upstreams.keys()].map((upstream) => ({
          upstream,
          state: breakers.get(upstream) ?? 'closed',
        }))
        return {
          id: source.id,
          name: source.definition.name,
          state: stateOf(
            known,
            missing.size === names.length,
            missing.size > 0 || datasets.some((dataset) => !dataset.loaded),
            upstreamBreakers.some((b) => b.state !== 'closed'),
          ),
          last_ok_at: known?.lastOkAt === undefined ? null : new Date(known.lastOkAt).toISOString(),
          last_error: known?.lastError ?? null,
          failures_in_a_row: known?.failuresInARow ?? 0,
          breakers: upstreamBreakers,
          cache_ttl_seconds: source.definition.cacheTtlSeconds,
          not_configured: notConfigured,
          datasets,
        }
      })
    },
  }
}

/**
 * `not_configured` when no operation can answer; `failing` when a breaker rests an upstream or
 * the last few calls all failed; `degraded` after a failure not yet followed by a good answer,
 * or when some operations lack a setting or a dataset; `ok` otherwise, a source not yet called included.
 */
function stateOf(
  known: Tally | undefined,
  noneConfigured: boolean,
  someUnconfigured: boolean,
  breakerOpen: boolean,
): SourceState {
  if (noneConfigured) return 'not_configured'
  const inARow = known?.failuresInARow ?? 0
  if (breakerOpen || inARow >= failingAfter) return 'failing'
  if (inARow > 0 || someUnconfigured) return 'degraded'
  return 'ok'
}
