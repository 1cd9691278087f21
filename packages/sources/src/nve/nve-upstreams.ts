import { defineUpstream } from '@allmenning/core/source'

// NVE keeps an old API version alive for at least six months after a new one: the version is
// part of each base URL, so a deployment moves to a new one with ALLMENNING_UPSTREAM_NVE_<HAZARD>.

/** NVE's flood warnings (Flomvarslingen); `ALLMENNING_UPSTREAM_NVE_FLOOD` overrides it in the examples. */
export const nveFlood = defineUpstream({
  id: 'nve_flood',
  name: 'NVE flood warnings (Varsom)',
  baseUrl: 'https://api01.nve.no/hydrology/forecast/flood/v1.0.10/api',
  publisher: 'NVE (Norwegian Water Resources and Energy Directorate): Varsler fra Flomvarslingen i Norge og www.varsom.no',
  license: 'NLOD 2.0',
})

/** NVE's landslide warnings (Jordskredvarslingen); `ALLMENNING_UPSTREAM_NVE_LANDSLIDE` overrides it in the examples. */
export const nveLandslide = defineUpstream({
  id: 'nve_landslide',
  name: 'NVE landslide warnings (Varsom)',
  baseUrl: 'https://api01.nve.no/hydrology/forecast/landslide/v1.0.10/api',
  publisher: 'NVE (Norwegian Water Resources and Energy Directorate): Varsler fra Jordskredvarslingen i Norge og www.varsom.no',
  license: 'NLOD 2.0',
})

/** NVE's avalanche warnings (Snøskredvarslingen); `ALLMENNING_UPSTREAM_NVE_AVALANCHE` overrides it in the examples. */
export const nveAvalanche = defineUpstream({
  id: 'nve_avalanche',
  name: 'NVE avalanche warnings (Varsom)',
  baseUrl: 'https://api01.nve.no/hydrology/forecast/avalanche/v6.3.0/api',
  publisher: 'NVE (Norwegian Water Resources and Energy Directorate): Varsler fra Snøskredvarslingen i Norge og www.varsom.no',
  license: 'NLOD 2.0',
})
