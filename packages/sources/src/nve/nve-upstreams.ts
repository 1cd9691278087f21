import { defineUpstream } from '@allmenning/core/source'

// NVE keeps an old API version alive for at least six months after a new one: the version is
// part of each base URL, so a deployment moves to a new one with ALLMENNING_UPSTREAM_NVE_<HAZARD>.

/** NVE's flood warnings (Flomvarslingen); `ALLMENNING_UPSTREAM_NVE_FLOOD` overrides it in the examples. */
export const nveFlood = defineUpstream({
  id: 'nve_flood',
  name: 'NVE flood warnings (Varsom)',
  baseUrl: 'https://api01.nve.no/hydrology/forecast/flood/v1.0.10/api',
  publisher:
    'NVE (Norwegian Water Resources and Energy Directorate): Varsler fra Flomvarslingen i Norge og www.varsom.no',
  license: 'NLOD 2.0',
})

/** NVE's landslide warnings (Jordskredvarslingen); `ALLMENNING_UPSTREAM_NVE_LANDSLIDE` overrides it in the examples. */
export const nveLandslide = defineUpstream({
  id: 'nve_landslide',
  name: 'NVE landslide warnings (Varsom)',
  baseUrl: 'https://api01.nve.no/hydrology/forecast/landslide/v1.0.10/api',
  publisher:
    'NVE (Norwegian Water Resources and Energy Directorate): Varsler fra Jordskredvarslingen i Norge og www.varsom.no',
  license: 'NLOD 2.0',
})

/** NVE's avalanche warnings (Snøskredvarslingen); `ALLMENNING_UPSTREAM_NVE_AVALANCHE` overrides it in the examples. */
export const nveAvalanche = defineUpstream({
  id: 'nve_avalanche',
  name: 'NVE avalanche warnings (Varsom)',
  baseUrl: 'https://api01.nve.no/hydrology/forecast/avalanche/v6.3.0/api',
  publisher:
    'NVE (Norwegian Water Resources and Energy Directorate): Varsler fra Snøskredvarslingen i Norge og www.varsom.no',
  license: 'NLOD 2.0',
})

/**
 * NVE's hydrological API (HydAPI): stations and their observations. Every call needs a key in
 * the `X-API-Key` header (free, from https://hydapi.nve.no/users); the data is NLOD. The full
 * station list (`Active=1`, about 4 900 stations with their catchment statistics) is some 14 MB,
 * so the body limit and time limit are sized to it; it is fetched a few times a day at most.
 */
export const nveHydapi = defineUpstream({
  id: 'nve_hydapi',
  name: 'NVE HydAPI (hydrological data)',
  baseUrl: 'https://hydapi.nve.no/api/v1',
  publisher: 'NVE (Norwegian Water Resources and Energy Directorate), HydAPI',
  license: 'NLOD 2.0',
  maxBodyBytes: 24 * 1024 * 1024,
  timeoutMs: 30_000,
})

/** The variable `builtInSources` reads the HydAPI key from. */
export const HYDAPI_KEY_VARIABLE = 'ALLMENNING_NVE_HYDAPI_KEY'
