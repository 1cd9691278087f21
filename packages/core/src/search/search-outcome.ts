import type { SourceCoverage } from './entity-fan-out.js'

/**
 * What a search came to: `results` when something is shown; `no_results` when every source
 * asked answered and none matched; `incomplete` when nothing is shown and at least one source
 * could not answer (down, too slow, or its dataset not loaded), so "nothing" is not the truth.
 */
export function searchOutcome(
  shown: number,
  coverage: Record<string, SourceCoverage>,
): 'results' | 'no_results' | 'incomplete' {
  if (shown > 0) return 'results'
  return unanswered(coverage).length > 0 ? 'incomplete' : 'no_results'
}

/** The sources that could not answer, each with why, in words: `lovdata (not loaded: ...)`. */
export function unanswered(coverage: Record<string, SourceCoverage>): string[] {
  return Object.entries(coverage)
    .filter(([, c]) => c.status !== 'ok')
    .map(
      ([id, c]) =>
        `${id} (${c.status === 'timeout' ? `no answer within ${c.took_ms} ms` : c.status === 'not_loaded' ? `not loaded: ${c.message}` : (c.message ?? 'failed')})`,
    )
}
