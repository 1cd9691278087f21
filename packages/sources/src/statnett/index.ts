import { defineSource, type SourceDefinition } from '@allmenning/core'
import { getPhysicalFlow } from './get-physical-flow.js'
import { getPowerSituation } from './get-power-situation.js'
import { getProductionConsumption } from './get-production-consumption.js'

export interface StatnettOptions {
  /** Base of the driftsdata REST API; `https://driftsdata.statnett.no/restapi` by default. */
  baseUrl?: string
  /** Per-call time limit in milliseconds; the gateway's default when left out. */
  timeoutMs?: number
}

/** The real service; the example servers override it with `ALLMENNING_UPSTREAM_STATNETT`. */
export const statnettBaseUrl = 'https://driftsdata.statnett.no/restapi'

/**
 * The grid-operator source: live operational data from Statnett's driftsdata API.
 *
 * @example
 * createGateway({ sources: [statnett({ baseUrl: process.env.ALLMENNING_UPSTREAM_STATNETT })] })
 */
export function statnett(options: StatnettOptions = {}): SourceDefinition {
  return defineSource({
    id: 'statnett',
    name: 'Statnett driftsdata',
    description:
      'Live operational data from Statnett, the Norwegian transmission system operator: physical flow between price areas, Nordic production and consumption, and the power situation per Norwegian price area.',
    documentation: 'https://www.statnett.no/en/for-stakeholders-in-the-power-industry/data-from-the-power-system/',
    topic: 'energy',
    keywords: ['power', 'electricity', 'grid', 'strøm', 'kraft', 'kraftflyt', 'produksjon', 'forbruk', 'kraftsituasjonen', 'price area', 'prisområde', 'interconnector'],
    synonyms: ['energi', 'energy', 'strømnett', 'elektrisitet', 'transmission', 'sentralnettet', 'power flow', 'physical flow', 'power situation', 'consumption', 'production', 'driftsdata', 'kraftnett', 'electricity grid'],
    contentLanguages: ['en', 'no'],
    publisher: 'Statnett SF',
    cacheTtlSeconds: 300,
    limit: { default: 25, max: 100 },
    upstreams: [
      { id: 'statnett', name: 'Statnett driftsdata', baseUrl: options.baseUrl ?? statnettBaseUrl, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) },
    ],
    operations: [getPhysicalFlow, getProductionConsumption, getPowerSituation],
  })
}
