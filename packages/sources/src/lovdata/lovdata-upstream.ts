import { defineUpstream } from '@allmenning/core/source'

/** The Lovdata API, whose public-data endpoints need no key. */
export const LOVDATA_API_BASE_URL = 'https://api.lovdata.no'

/**
 * Lovdata's public data (laws and central regulations in force); `ALLMENNING_UPSTREAM_LOVDATA`
 * overrides it in the examples. NLOD 2.0 asks for the attribution "Kilde: Stiftelsen Lovdata".
 */
export const lovdataApi = defineUpstream({
  id: 'lovdata',
  name: 'Lovdata public data',
  baseUrl: LOVDATA_API_BASE_URL,
  publisher: 'Stiftelsen Lovdata',
  license: 'NLOD 2.0 — Kilde: Stiftelsen Lovdata',
})

/** The two archives of rules in force that the `lovdata` source loads. */
export const LOVDATA_RULE_FILES = {
  laws: 'gjeldende-lover.tar.bz2',
  regulations: 'gjeldende-sentrale-forskrifter.tar.bz2',
} as const
