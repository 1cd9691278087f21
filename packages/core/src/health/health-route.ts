import * as v from 'valibot'
import { defineRoute, type RouteDefinition } from '../routing/define-route.js'
import { jsonResponse } from '../http/json-response.js'
import type { Catalog } from '../compile/catalog.js'
import type { SourceHealth, SourceHealthRecorder, SourceState } from '../observe/source-health.js'

/** What the health route is made from: its slice of the gateway's context. */
export interface HealthContext {
  catalog: Catalog
  /** What the gateway has seen of each source's health. */
  health: SourceHealthRecorder
}

const states: readonly SourceState[] = ['ok', 'degraded', 'failing', 'not_configured']

/** The gateway's state in a word: `failing` when every configured source is, `degraded` when any is short of ok, else `ok`. */
function overall(sources: readonly SourceHealth[]): 'ok' | 'degraded' | 'failing' {
  const configured = sources.filter((source) => source.state !== 'not_configured')
  if (configured.length > 0 && configured.every((source) => source.state === 'failing')) return 'failing'
  return configured.every((source) => source.state === 'ok') ? 'ok' : 'degraded'
}

const healthSchema = {
  type: 'object',
  required: ['status', 'checked_at', 'counts', 'sources'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded', 'failing'] },
    checked_at: { type: 'string', format: 'date-time' },
    counts: { type: 'object', properties: Object.fromEntries(states.map((state) => [state, { type: 'integer' }])) },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'id',
          'name',
          'state',
          'last_ok_at',
          'last_error',
          'failures_in_a_row',
          'breakers',
          'cache_ttl_seconds',
          'not_configured',
          'datasets',
        ],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          state: { type: 'string', enum: states },
          last_ok_at: { type: ['string', 'null'], format: 'date-time' },
          last_error: {
            type: ['object', 'null'],
            properties: {
              at: { type: 'string' },
              operation: { type: 'string' },
              code: { type: 'string' },
              upstream: { type: 'string' },
              message: { type: 'string' },
            },
          },
          failures_in_a_row: { type: 'integer' },
          breakers: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                upstream: { type: 'string' },
                state: { type: 'string', enum: ['closed', 'open', 'half-open'] },
              },
            },
          },
          cache_ttl_seconds: { type: 'integer' },
          not_configured: {
            type: 'array',
            items: {
              type: 'object',
              properties: { configure: { type: 'string' }, operations: { type: 'array', items: { type: 'string' } } },
            },
          },
          datasets: {
            type: 'array',
            items: { type: 'object', properties: { id: { type: 'string' }, loaded: { type: 'boolean' } } },
          },
        },
      },
    },
  },
}

/**
 * `/health`: every source's state from what the gateway has seen (its last good answer, its
 * last failure, its breakers, the settings it lacks). Answering calls no upstream, so it is
 * cheap to poll; never cached. Always a 200 while the gateway itself answers: a failing
 * upstream is the source's state, not the gateway's.
 */
export function healthRoute({ catalog, health }: HealthContext): RouteDefinition {
  const [first, ...rest] = catalog.sources.map((source) => source.id)
  const ids = first === undefined ? v.never() : v.picklist([first, ...rest])
  return defineRoute({
    name: 'health',
    path: '/health',
    summary: 'Every source\u2019s health, from what the gateway has seen',
    description:
      'Each source with its state (`ok`, `degraded`, `failing`, `not_configured`), when it last answered well, its last error, failures in a row, its upstreams\u2019 circuit breakers, its cache time, the settings and datasets it lacks. Built from the answers the gateway has made: asking calls no upstream. `source` narrows it to one source.',
    tag: 'Health',
    query: { source: v.optional(v.pipe(ids, v.description('One source id; every source when left out.'))) },
    response: healthSchema,
    answer: ({ params, links }) => {
      const all = health.report()
      const sources = params.source === undefined ? all : all.filter((source) => source.id === params.source)
      const counts = Object.fromEntries(
        states.map((state) => [state, sources.filter((source) => source.state === state).length]),
      )
      const body = {
        status: overall(sources),
        checked_at: new Date().toISOString(),
        counts,
        sources,
        _links: { self: links.to('health'), api_index: links.index() },
      }
      return jsonResponse(200, body, { 'cache-control': 'no-store' })
    },
  })
}
