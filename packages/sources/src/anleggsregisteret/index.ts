import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { anleggsregisteretApi } from './anleggsregisteret-upstream.js'
import { sportsFacilitiesPlaceField } from './place-fields.js'

/** Options of {@link anleggsregisteret}. */
export interface AnleggsregisteretOptions {
  /**
   * The request budget the register's pages take their turn in. By default one budget of 5
   * requests a second is shared by every `anleggsregisteret()` source in the process.
   */
  requestBudget?: RequestBudget
  /**
   * Longest one request spends reading the register's pages before it answers that the
   * register is still being read (7 000 ms by default). Keep it below the gateway's
   * `deadlineMs` (10 000 ms by default), or the deadline answers instead.
   */
  readSliceMs?: number
  /** How long a read register is answered from before it is read again in the background; 12 hours by default. */
  registerTtlMs?: number
}

/**
 * The built-in `anleggsregisteret` source: sports and cultural facilities of a municipality
 * from Anleggsregisteret, with type, status, owner, operator and a WGS84 position. The
 * register cannot be asked for one municipality, so each call of the factory keeps its own
 * copy of the whole register, read twice a day (a hundred-odd pages) and filtered here.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { anleggsregisteret } from '@allmenning/sources/anleggsregisteret'
 * const gateway = createGateway({ sources: [anleggsregisteret()] })
 * // GET /api/v1/kilder/anleggsregisteret/find_facilities?municipality=Oslo&limit=500
 */
export function anleggsregisteret(options: AnleggsregisteretOptions = {}): SourceDefinition {
  return defineSource({
    id: 'anleggsregisteret',
    name: 'Anleggsregisteret: sports and cultural facilities',
    description:
      "Norway's register of sports facilities, outdoor recreation facilities and cultural buildings built or refurbished " +
      'with gaming funds (spillemidler): halls, pitches, pools, ski trails, climbing walls and more, by municipality.',
    documentation: 'https://www.anleggsregisteret.no/',
    topic: 'culture',
    keywords: [
      'sports facilities',
      'idrettsanlegg',
      'anlegg',
      'idrettshall',
      'svømmehall',
      'fotballbane',
      'kulturbygg',
      'spillemidler',
    ],
    synonyms: [
      'sports hall',
      'stadium',
      'pitch',
      'pool',
      'gym',
      'ballbinge',
      'kunstgress',
      'lysløype',
      'skianlegg',
      'nærmiljøanlegg',
      'friluftsliv',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 3 * 3600,
    limit: { default: 100, max: 500 },
    upstreams: [anleggsregisteretApi, kartverketKommuneinfo],
    // The operations' code is imported when a request first reads it (see deferOperations).
    entityTypes: { facility: { operation: 'get_facility', parameter: 'id' } },
    // Imported when a search first needs it, as the operations it calls are.
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).anleggsregisteretEntitySearch),
    operations: deferOperations(
      {
        find_facilities: 'findFacilities',
        find_facilities_nearby: { operation: 'findFacilitiesNearby', placeField: sportsFacilitiesPlaceField },
        search_facilities: 'searchFacilities',
        get_facility: 'getFacility',
      },
      async () =>
        (await import('./operations.js')).anleggsregisteretOperations({
          ...(options.requestBudget ? { budget: options.requestBudget } : {}),
          ...(options.readSliceMs !== undefined ? { sliceMs: options.readSliceMs } : {}),
          ...(options.registerTtlMs !== undefined ? { ttlMs: options.registerTtlMs } : {}),
        }),
    ),
  })
}
export { anleggsregisteretApi } from './anleggsregisteret-upstream.js'
export { anleggsregisteretRequestBudget } from './anleggsregisteret-budget.js'
export { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
