import { deferEntitySearch, deferOperations, defineSource, type SourceDefinition } from '@allmenning/core/source'
import type { RequestBudget } from '../shared/request-budget.js'
import { checkedClientName } from './client-name.js'
import { enturRequestBudget } from './entur-calls.js'
import { enturGeocoder, enturJourneyPlanner, enturMobility, enturVehicles } from './entur-upstreams.js'
import { sharedMobilityPlaceField, stopsPlaceField } from './place-fields.js'

/** Options of the {@link entur} source. */
export interface EnturOptions {
  /**
   * The `ET-Client-Name` sent to Entur, `<company>-<application>`. Left out, it is made from
   * the gateway's User-Agent and the contact in it (`example.no-allmenning` for
   * `ALLMENNING_CONTACT=ops@example.no`); see `enturClientName`.
   */
  clientName?: string
  /** The request budget Entur calls take their turn in; by default one of 10 a second shared by every `entur()` in the process. */
  requestBudget?: RequestBudget
}

/**
 * The built-in `entur` source: public transport stop places in Norway by name and near a
 * point, the next departures from a stop place, the vehicles near a point now, and the shared
 * scooters, bicycles and cars free to rent there, from Entur's geocoder, JourneyPlanner v3,
 * vehicle positions and Mobility v2. Every call names the deployment in Entur's
 * `ET-Client-Name` header.
 *
 * @example
 * import { createGateway } from '@allmenning/core'
 * import { entur } from '@allmenning/sources/entur'
 * const gateway = createGateway({ sources: [entur()], upstream: { userAgent: 'allmenning/0.1.0 (+ops@example.no)' } })
 * // GET /api/v1/kilder/entur/get_departures?stop_place_id=NSR:StopPlace:337 (sent as ET-Client-Name: example.no-allmenning)
 */
export function entur(options: EnturOptions = {}): SourceDefinition {
  const access = {
    budget: options.requestBudget ?? enturRequestBudget,
    clientName: options.clientName === undefined ? undefined : checkedClientName(options.clientName),
  }
  return defineSource({
    id: 'entur',
    name: 'Public transport stops, departures, live vehicles and shared mobility (Entur)',
    description:
      "Norway's public transport from Entur's national registry: stop places by name or near a point, the " +
      'next departures from a stop with real-time estimates and cancellations (bus, tram, metro, train, ' +
      'ferry, air), where the vehicles are now, and the shared e-scooters, city bikes and cars free to rent ' +
      'near a point.',
    documentation: 'https://developer.entur.org',
    topic: 'transport',
    keywords: [
      'public transport',
      'kollektivtransport',
      'departures',
      'avganger',
      'stop',
      'holdeplass',
      'entur',
      'bus',
      'train',
      'vehicle positions',
      'shared mobility',
    ],
    synonyms: [
      'buss',
      'tog',
      'trikk',
      't-bane',
      'ferje',
      'rutetider',
      'sanntid',
      'stoppested',
      'stasjon',
      'timetable',
      'real-time',
      'posisjon',
      'elsparkesykkel',
      'sparkesykkel',
      'scooter',
      'bysykkel',
      'city bike',
      'bildeling',
      'car sharing',
      'delt mobilitet',
    ],
    contentLanguages: ['no', 'en'],
    cacheTtlSeconds: 30,
    limit: { default: 20, max: 100 },
    upstreams: [enturJourneyPlanner, enturGeocoder, enturVehicles, enturMobility],
    entityTypes: { stop_place: { operation: 'get_departures', parameter: 'stop_place_id' } },
    // Imported when a search first needs it (it recognizes nothing by its shape).
    entitySearch: deferEntitySearch(async () => (await import('./entity-search.js')).enturEntitySearch),
    // The operations' code is imported when a request first reads it (see deferOperations).
    operations: deferOperations(
      {
        search_stops: 'searchStops',
        get_departures: 'getDepartures',
        find_stops_nearby: { operation: 'findStopsNearby', placeField: stopsPlaceField },
        find_live_vehicles_nearby: 'findLiveVehiclesNearby',
        find_shared_mobility_nearby: { operation: 'findSharedMobilityNearby', placeField: sharedMobilityPlaceField },
      },
      async () => (await import('./operations.js')).enturOperations(access),
    ),
  })
}
export { enturJourneyPlanner, enturGeocoder, enturVehicles, enturMobility } from './entur-upstreams.js'
export { enturClientName } from './client-name.js'
export { enturRequestBudget } from './entur-calls.js'
