import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
import type { RequestBudget } from '../shared/request-budget.js'
import { schoolsPlaceField } from './place-fields.js'
import { udirNbr, udirNsr } from './udir-upstreams.js'
import { udirEnheter } from './datasets/udir-enheter.js'
import type { UnitRegister } from './unit-register.js'

/** Options of {@link utdanning}. */
export interface UtdanningOptions {
  /**
   * The request budget Udir's registers are called within. By default one budget of 10
   * requests a second is shared by every `utdanning()` source in the process.
   */
  requestBudget?: RequestBudget
  /**
   * Longest one request waits for the positions of its rows to be read before it answers with
   * what is known (2 500 ms by default); the reads it started go on until its deadline.
   */
  fillSliceMs?: number
  /**
   * How long after a request starts the reads it started go on taking new units (7 000 ms by
   * default); keep it below the gateway's `deadlineMs` (10 000 ms by default), which ends them.
   */
  fillWindowMs?: number
}

/**
 * The built-in `utdanning` source: schools and kindergartens from Udir's national registers
 * (NSR and NBR), by municipality or county, with the flags clients read, the address and a
 * WGS84 position, one unit in full by organisation number, and the schools near a point.
 * Positions are only in each unit's own record, so each source instance keeps the positions
 * it has read (30 days) and reads missing ones a few at a time as requests need them.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { utdanning } from '@allmenning/sources/utdanning'
 * const gateway = createGateway({ sources: [utdanning()] })
 * // GET /api/v1/kilder/utdanning/search_schools?kommunenr=0301&limit=100
 */
export function utdanning(options: UtdanningOptions = {}): SourceDefinition {
  let register: UnitRegister | undefined
  return defineSource({
    id: 'utdanning',
    name: 'Utdanning: schools and kindergartens (Udir NSR and NBR)',
    description:
      "Norway's schools and kindergartens from the Directorate for Education and Training's national registers (Nasjonalt " +
      'skoleregister and Nasjonalt barnehageregister): by municipality or county, with type, ownership, address and position.',
    documentation: 'https://data-nsr.udir.no/swagger/index.html',
    topic: 'education',
    keywords: ['schools', 'skoler', 'kindergartens', 'barnehager', 'grunnskole', 'videregående', 'NSR', 'NBR', 'udir'],
    synonyms: [
      'skole',
      'barnehage',
      'school',
      'kindergarten',
      'daycare',
      'barneskole',
      'ungdomsskole',
      'vgs',
      'privatskole',
    ],
    contentLanguages: ['no'],
    cacheTtlSeconds: 300,
    limit: { default: 100, max: 1000 },
    upstreams: [udirNsr, udirNbr, kartverketKommuneinfo],
    // Positions from `npx allmenning datasets sync udir_enheter` when loaded; read at request time when not.
    datasets: [udirEnheter],
    entityTypes: {
      school: { operation: 'get_unit', parameter: 'organization_id' },
      kindergarten: { operation: 'get_unit', parameter: 'organization_id' },
    },
    // Imported when a search first needs it; only nine digits load it to be recognized (as an organisation number).
    entitySearch: deferEntitySearch(async () => (await import('./unit-search.js')).unitEntitySearch(() => register), {
      mayRecognize: (text) => /^\d{9}$/.test(text.trim().replace(/[\s.]/g, '')),
    }),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        search_schools: 'searchSchools',
        search_kindergartens: 'searchKindergartens',
        get_unit: 'getUnit',
        find_schools_nearby: { operation: 'findSchoolsNearby', placeField: schoolsPlaceField },
      },
      async () => {
        const [{ createUnitRegister }, { udirRequestBudget }, { utdanningOperations }] = await Promise.all([
          import('./unit-register.js'),
          import('./udir-budget.js'),
          import('./operations.js'),
        ])
        register ??= createUnitRegister({
          budget: options.requestBudget ?? udirRequestBudget,
          ...(options.fillSliceMs !== undefined ? { fillSliceMs: options.fillSliceMs } : {}),
          ...(options.fillWindowMs !== undefined ? { fillWindowMs: options.fillWindowMs } : {}),
        })
        return utdanningOperations(register)
      },
    ),
  })
}
export { udirNsr, udirNbr } from './udir-upstreams.js'
export { udirRequestBudget } from './udir-budget.js'
export { udirEnheter } from './datasets/udir-enheter.js'
export { udirBaseUrl, udirJournalPath, UDIR_ENHETER_FILES, UDIR_PAGE_SIZE } from './datasets/udir-register-files.js'
export { kartverketKommuneinfo } from '../shared/kommuneinfo-upstream.js'
