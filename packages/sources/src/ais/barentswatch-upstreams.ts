import { defineUpstream } from '@allmenning/core/source'

/** BarentsWatch's OAuth server: client-credentials tokens for the AIS API (scope `ais`). */
export const barentswatchId = defineUpstream({
  id: 'barentswatch_id',
  name: 'BarentsWatch identity service',
  baseUrl: 'https://id.barentswatch.no',
  publisher: 'BarentsWatch',
})

/**
 * BarentsWatch's live AIS API: Kystverket's open AIS data for the Norwegian economic zone and
 * the Svalbard and Jan Mayen zones, less fishing vessels under 15 m and leisure craft under 45 m.
 */
export const barentswatchAis = defineUpstream({
  id: 'barentswatch_ais',
  name: 'BarentsWatch AIS',
  baseUrl: 'https://live.ais.barentswatch.no',
  publisher: 'Kystverket (Norwegian Coastal Administration), via BarentsWatch',
  license: 'NLOD 2.0',
})

/** The variables `builtInSources` reads the BarentsWatch client from. */
export const BARENTSWATCH_CLIENT_ID_VARIABLE = 'ALLMENNING_BARENTSWATCH_CLIENT_ID'
export const BARENTSWATCH_CLIENT_SECRET_VARIABLE = 'ALLMENNING_BARENTSWATCH_CLIENT_SECRET'
