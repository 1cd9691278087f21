import { defineUpstream } from '@allmenning/core/source'

/**
 * Entur's JourneyPlanner v3, the GraphQL API behind departures. Entur's terms ask every caller
 * to name itself in an `ET-Client-Name` header (see `enturClientName`) and rate-limit or block
 * those who do not; its open data is NLOD. `ALLMENNING_UPSTREAM_ENTUR_JOURNEY_PLANNER`
 * overrides the base URL in the examples.
 */
export const enturJourneyPlanner = defineUpstream({
  id: 'entur_journey_planner',
  name: 'Entur JourneyPlanner v3',
  baseUrl: 'https://api.entur.io/journey-planner/v3',
  publisher: 'Entur AS (national registry of public transport in Norway)',
  license: 'NLOD 2.0',
})

/**
 * Entur's geocoder (Pelias), for stop places by name and near a point: GeoJSON with
 * `[lon, lat]` positions. Same terms as JourneyPlanner; `ALLMENNING_UPSTREAM_ENTUR_GEOCODER`
 * overrides the base URL in the examples.
 */
export const enturGeocoder = defineUpstream({
  id: 'entur_geocoder',
  name: 'Entur geocoder',
  baseUrl: 'https://api.entur.io/geocoder/v1',
  publisher: 'Entur AS (national registry of public transport in Norway)',
  license: 'NLOD 2.0',
})

/**
 * Entur's vehicle positions (GraphQL, `POST /graphql`): where buses, trams, trains and ferries
 * are now, from the operators' SIRI VM feeds. Same terms as JourneyPlanner (ET-Client-Name,
 * NLOD); `ALLMENNING_UPSTREAM_ENTUR_VEHICLES` overrides the base URL in the examples.
 */
export const enturVehicles = defineUpstream({
  id: 'entur_vehicles',
  name: 'Entur vehicle positions',
  baseUrl: 'https://api.entur.io/realtime/v2/vehicles',
  publisher: 'Entur AS (national registry of public transport in Norway)',
  license: 'NLOD 2.0',
  // The widest box asked for (40 km across Oslo) holds some thousand vehicles, about 1 MB.
  maxBodyBytes: 4 * 1024 * 1024,
})

/**
 * Entur's Mobility v2 (GraphQL, `POST /graphql`): shared scooters, bicycles, cars and their
 * stations, gathered from the operators' GBFS feeds. Same terms as JourneyPlanner
 * (ET-Client-Name, NLOD); `ALLMENNING_UPSTREAM_ENTUR_MOBILITY` overrides the base URL in the
 * examples.
 */
export const enturMobility = defineUpstream({
  id: 'entur_mobility',
  name: 'Entur Mobility v2',
  baseUrl: 'https://api.entur.io/mobility/v2',
  publisher: 'Entur AS (national registry of public transport in Norway)',
  license: 'NLOD 2.0',
})
